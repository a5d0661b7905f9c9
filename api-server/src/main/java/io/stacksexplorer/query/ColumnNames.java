package io.stacksexplorer.query;

import io.micronaut.data.model.naming.NamingStrategies;
import io.micronaut.data.model.naming.NamingStrategy;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Micronaut Data's default column naming (snake_case of the record component), remembered: the
 * framework derives the name again for every column of every row it reads, and that camel-case
 * conversion was a quarter of an address page's CPU time. Row records name it in {@code @MappedEntity}.
 */
public final class ColumnNames implements NamingStrategy {

    private static final NamingStrategy SNAKE_CASE = new NamingStrategies.UnderScoreSeparatedLowerCase();
    private static final Map<String, String> NAMES = new ConcurrentHashMap<>();

    @Override
    public String mappedName(String name) {
        return NAMES.computeIfAbsent(name, SNAKE_CASE::mappedName);
    }
}
