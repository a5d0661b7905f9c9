package io.stacksexplorer.query;

import io.micronaut.data.exceptions.DataAccessException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One statement on a pooled connection, mapped row by row: the plain-JDBC reads of the stores (the
 * hot pages, the chain tip, blocks) and of the change log ({@link ChangeQueries}), where the generic
 * row mapper cost more than the query. A failure is a {@link DataAccessException}, answered like any
 * other storage failure.
 */
final class PlainJdbc {

    private PlainJdbc() {
    }

    @FunctionalInterface
    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    @FunctionalInterface
    interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** @param what names the read in the failure's message ("{what} failed: …") */
    static <T> List<T> query(DataSource dataSource, String what, String sql, Binder binder, Reader<T> reader) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement ps = connection.prepareStatement(sql)) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(reader.read(rs));
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new DataAccessException(what + " failed: " + e.getMessage(), e);
        }
    }

    /** Binds the parameters that follow a statement's id list, from parameter {@code next} on. */
    @FunctionalInterface
    interface After {
        void bind(PreparedStatement ps, int next) throws SQLException;
    }

    /**
     * {@code sql} for a list of ids, written {@code (:ids)} ({@link #withIds}), each bound in turn,
     * then {@code after} for the parameters that follow; no statement at all for no ids.
     */
    static <T> List<T> queryByIds(DataSource dataSource, String sql, Collection<String> ids, After after,
                                  Reader<T> reader) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<String> list = List.copyOf(ids);
        return query(dataSource, "query", withIds(sql, list.size()), ps -> {
            for (int i = 0; i < list.size(); i++) {
                ps.setString(i + 1, list.get(i));
            }
            after.bind(ps, list.size() + 1);
        }, reader);
    }

    static <T> Optional<T> first(List<T> rows) {
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /**
     * {@code sql} with its list parameter, written {@code (:ids)} like a repository's, as {@code n}
     * placeholders.
     */
    static String withIds(String sql, int n) {
        return sql.replace("(:ids)", "(" + String.join(", ", Collections.nCopies(n, "?")) + ")");
    }

    /** A column list with each column qualified by {@code prefix} (a table alias and its dot). */
    static String prefixed(String prefix, String columns) {
        return Arrays.stream(columns.split(",")).map(c -> prefix + c.trim()).collect(Collectors.joining(", "));
    }
}
