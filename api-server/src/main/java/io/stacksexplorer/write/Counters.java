package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The O(1) totals, kept in the same database transaction as the rows they count: per-principal
 * pending counts by delta; per-principal transaction and per-contract log counts are the highest
 * position number and are set by {@link Positions}.
 */
final class Counters {

    private Counters() {
    }

    /** Sets counter rows to absolute values (UPDATE-then-INSERT). */
    static void set(Statements sql, String update, String insert, List<Map.Entry<String, Long>> values)
            throws SQLException {
        if (values.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Long> e : values) {
            sql.addBatch(update, e.getValue(), e.getKey());
        }
        int[] updated = sql.executeBatch(update);
        for (int i = 0; i < values.size(); i++) {
            // Drivers may report SUCCESS_NO_INFO (-2) for a batched row; only 0 means "no such row".
            if (updated[i] == 0) {
                sql.addBatch(insert, values.get(i).getValue(), values.get(i).getKey());
            }
        }
        sql.executeBatch(insert);
    }

    static void addMempoolCounts(Statements sql, Map<String, Long> deltas) throws SQLException {
        add(sql, WriteSql.ADD_MEMPOOL_COUNT, WriteSql.INSERT_MEMPOOL_COUNT, deltas);
    }

    /** UPDATE-then-INSERT upsert of counter rows keyed by one string. */
    private static void add(Statements sql, String add, String insert, Map<String, Long> deltas)
            throws SQLException {
        if (deltas.isEmpty()) {
            return;
        }
        List<Map.Entry<String, Long>> entries = new ArrayList<>(deltas.entrySet());
        for (Map.Entry<String, Long> e : entries) {
            sql.addBatch(add, e.getValue(), e.getKey());
        }
        int[] updated = sql.executeBatch(add);
        for (int i = 0; i < entries.size(); i++) {
            // Drivers may report SUCCESS_NO_INFO (-2) for a batched row; only 0 means "no such row".
            if (updated[i] == 0) {
                sql.addBatch(insert, entries.get(i).getValue(), entries.get(i).getKey());
            }
        }
        sql.executeBatch(insert);
    }
}
