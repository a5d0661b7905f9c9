package io.stacksexplorer.web;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The framework reads any unknown word as {@code false} for a boolean parameter; the spec allows
 * only {@code true}, {@code false} and, for compatibility with the peer's clients, {@code 1},
 * {@code 0} and a bare {@code ?unanchored}. Anything else is a 400 naming the parameter. The
 * controllers read the accepted spellings with {@link RequestParams#unanchored(Boolean)}.
 */
@ServerFilter("/extended/**")
class BooleanQueryFilter {

    private static final Set<String> ACCEPTED = Set.of("true", "false", "1", "0", "");

    private final ErrorResponseProcessor<?> processor;

    BooleanQueryFilter(ErrorResponseProcessor<?> processor) {
        this.processor = processor;
    }

    /** Returns a 400 answer for a bad value, or null to let the request through. */
    @RequestFilter
    @Nullable
    MutableHttpResponse<?> checkUnanchored(HttpRequest<?> request) {
        List<String> values = request.getParameters().getAll("unanchored");
        for (String value : values) {
            if (!ACCEPTED.contains(value.toLowerCase(Locale.ROOT))) {
                return ParameterProblemHandlers.respond(processor, request, ApiProblems.badParameter("unanchored",
                        "unanchored must be true or false, got '" + value + "'"));
            }
        }
        return null;
    }
}
