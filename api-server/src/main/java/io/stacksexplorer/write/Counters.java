package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
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

    /**
     * Sets counter rows to absolute values. On PostgreSQL all rows are set by one upsert over arrays
     * ({@code upsertAll}), queued like a batch: a replay sets about a thousand counters per database
     * transaction, and a block of the observer path a few, with no answer needed before the commit.
     * Elsewhere UPDATE-then-INSERT, a batch each.
     */
    static void set(Statements sql, WriteStatement update, WriteStatement upsertAll, WriteStatement insert,
                    List<Map.Entry<String, Long>> values) throws SQLException {
        if (values.isEmpty()) {
            return;
        }
        if (sql.isPostgres()) {
            queueOverArrays(sql, upsertAll, values);
            sql.countRows(values.size() - 1);
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

    /**
     * Adds to the pending counts. On PostgreSQL all counters are updated by one statement over
     * arrays, as {@link #set} does: the end of a replay's database transaction adds to about eighty
     * principals' counts, 111,243 batched UPDATEs for 1,000,000 transactions.
     */
    static void addMempoolCounts(Statements sql, Map<String, Long> deltas) throws SQLException {
        addMempoolCounts(sql, deltas, false);
    }

    /**
     * Adds to the pending counts and, with {@code bumpVersion}, on PostgreSQL bumps the mempool's
     * version in the same statement; returns whether it did (else the caller bumps it).
     */
    static boolean addMempoolCounts(Statements sql, Map<String, Long> deltas, boolean bumpVersion)
            throws SQLException {
        if (deltas.isEmpty()) {
            return false;
        }
        if (sql.isPostgres()) {
            queueOverArrays(sql, bumpVersion ? WriteSql.UPSERT_MEMPOOL_COUNTS_BUMPING_VERSION_POSTGRESQL
                    : WriteSql.UPSERT_MEMPOOL_COUNTS_POSTGRESQL, deltas.entrySet());
            return bumpVersion;
        }
        add(sql, WriteSql.ADD_MEMPOOL_COUNT, WriteSql.INSERT_MEMPOOL_COUNT, deltas);
        return false;
    }

    /**
     * PostgreSQL: queues {@code upsert} once for all counters, bound to an array of keys and an array
     * of values. No answer is needed, so it travels with the transaction's last statements.
     */
    private static void queueOverArrays(Statements sql, WriteStatement upsert,
                                        Collection<Map.Entry<String, Long>> counters) throws SQLException {
        String[] keys = new String[counters.size()];
        Long[] numbers = new Long[counters.size()];
        int i = 0;
        for (Map.Entry<String, Long> e : counters) {
            keys[i] = e.getKey();
            numbers[i++] = e.getValue();
        }
        sql.writingKeys(upsert, Arrays.asList(keys));
        sql.addBatch(upsert, sql.array("varchar", keys), sql.array("bigint", numbers));
    }

    /** UPDATE-then-INSERT upsert of counter rows keyed by one string. */
    private static void add(Statements sql, WriteStatement add, WriteStatement insert, Map<String, Long> deltas)
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
