package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The position numbers of served rows (see migration V10): per principal in {@code principal_txs}
 * and per contract among the log events in {@code tx_events}, dense from 1 in chain order, with
 * the counter equal to the highest position. One instance lives for one database transaction.
 *
 * <p>Appending (a canonical block on the tip) takes the next numbers from the counter. Anything
 * that changes the served set below the top (a reorg flip, a settled microblock stream, new
 * unanchored rows) marks the principals and contracts it touches {@link #dirty} from the lowest
 * block height it touched; {@link #renumber} then renumbers only the rows at or above that height.
 */
final class Positions {

    /** The two numbered lists, with their SQL. */
    enum Kind {
        HISTORY(WriteSql.HISTORY_KEYS_OF_BLOCK, WriteSql.HISTORY_POSITION_BELOW, WriteSql.HISTORY_ROWS_FROM,
                WriteSql.SET_HISTORY_POSITION, WriteSql.PRINCIPAL_COUNT, WriteSql.SET_PRINCIPAL_COUNT,
                WriteSql.INSERT_PRINCIPAL_COUNT),
        LOGS(WriteSql.LOG_KEYS_OF_BLOCK, WriteSql.LOG_POSITION_BELOW, WriteSql.LOG_ROWS_FROM,
                WriteSql.SET_LOG_POSITION, WriteSql.CONTRACT_LOG_COUNT, WriteSql.SET_CONTRACT_LOG_COUNT,
                WriteSql.INSERT_CONTRACT_LOG_COUNT);

        final String keysOfBlock;
        final String positionBelow;
        final String rowsFrom;
        final String setPosition;
        final String count;
        final String setCount;
        final String insertCount;

        Kind(String keysOfBlock, String positionBelow, String rowsFrom, String setPosition, String count,
             String setCount, String insertCount) {
            this.keysOfBlock = keysOfBlock;
            this.positionBelow = positionBelow;
            this.rowsFrom = rowsFrom;
            this.setPosition = setPosition;
            this.count = count;
            this.setCount = setCount;
            this.insertCount = insertCount;
        }
    }

    private final Statements sql;
    private final CommittedCounters committed;
    /** The counters this transaction ends with, for {@link CommittedCounters} once it committed. */
    private final Map<Kind, Map<String, Long>> finalCounters = new EnumMap<>(Kind.class);
    private final Map<Kind, Map<String, Long>> tops = new HashMap<>();
    private final Map<Kind, Map<String, Long>> loaded = new HashMap<>();
    private final Map<Kind, Map<String, Long>> dirtyFrom = new HashMap<>();

    Positions(Statements sql, CommittedCounters committed) {
        this.sql = sql;
        this.committed = committed;
        for (Kind kind : Kind.values()) {
            finalCounters.put(kind, new HashMap<>());
            tops.put(kind, new HashMap<>());
            loaded.put(kind, new HashMap<>());
            dirtyFrom.put(kind, new HashMap<>());
        }
    }

    /** The position of a new served row appended on top of {@code key}'s list. */
    long next(Kind kind, String key) throws SQLException {
        Map<String, Long> top = tops.get(kind);
        Long current = top.get(key);
        if (current == null) {
            current = committed.get(kind, key);
            if (current == null) {
                List<Long> stored = sql.query(kind.count, rs -> rs.getLong(1), key);
                current = stored.isEmpty() ? 0L : stored.get(0);
            }
            loaded.get(kind).put(key, current);
        }
        top.put(key, current + 1);
        return current + 1;
    }

    /** Loads the counters of {@code keys} not known yet, a chunk of keys per query. */
    void preload(Kind kind, Collection<String> keys) throws SQLException {
        Map<String, Long> top = tops.get(kind);
        List<String> missing = new ArrayList<>();
        for (String key : keys) {
            if (!top.containsKey(key)) {
                Long cached = committed.get(kind, key);
                if (cached != null) {
                    top.put(key, cached);
                    loaded.get(kind).put(key, cached);
                } else {
                    missing.add(key);
                }
            }
        }
        String prefix = kind == Kind.HISTORY ? WriteSql.PRINCIPAL_COUNTS_PREFIX : WriteSql.CONTRACT_LOG_COUNTS_PREFIX;
        for (Object[] row : sql.queryIn(prefix, missing, rs -> new Object[]{rs.getString(1), rs.getLong(2)})) {
            top.put((String) row[0], (Long) row[1]);
            loaded.get(kind).put((String) row[0], (Long) row[1]);
        }
        for (String key : missing) {
            if (!top.containsKey(key)) {
                // No counter row yet: the list is empty.
                top.put(key, 0L);
                loaded.get(kind).put(key, 0L);
            }
        }
    }

    /** Marks everything one block (or microblock stream) holds for renumbering. Call before it changes. */
    void dirty(String indexBlockHash) throws SQLException {
        for (Kind kind : Kind.values()) {
            for (Object[] row : sql.query(kind.keysOfBlock, rs -> new Object[]{rs.getString(1), rs.getLong(2)},
                    indexBlockHash)) {
                dirty(kind, (String) row[0], (Long) row[1]);
            }
        }
    }

    void dirty(Kind kind, String key, long fromHeight) {
        dirtyFrom.get(kind).merge(key, fromHeight, Math::min);
    }

    /**
     * Renumbers the served rows of every dirty list from its lowest touched height up, after the
     * flags changed and the rows were written; rows whose number is unchanged are not touched.
     */
    void renumber() throws SQLException {
        sql.executeAllBatches();
        for (Kind kind : Kind.values()) {
            for (Map.Entry<String, Long> d : dirtyFrom.get(kind).entrySet()) {
                String key = d.getKey();
                long from = d.getValue();
                List<Long> below = sql.query(kind.positionBelow, rs -> rs.getLong(1), key, from);
                long position = below.isEmpty() ? 0 : below.get(0);
                // Each row: its key columns, then its current position.
                List<Object[]> rows = sql.query(kind.rowsFrom, rs -> {
                    Object[] row = new Object[rs.getMetaData().getColumnCount()];
                    for (int i = 0; i < row.length; i++) {
                        row[i] = rs.getObject(i + 1);
                    }
                    return row;
                }, key, from);
                for (Object[] row : rows) {
                    position++;
                    Object old = row[row.length - 1];
                    if (old == null || ((Number) old).longValue() != position) {
                        Object[] params = new Object[row.length + 1];
                        params[0] = position;
                        params[1] = key;
                        System.arraycopy(row, 0, params, 2, row.length - 1);
                        sql.addBatch(kind.setPosition, params);
                    }
                }
                sql.executeBatch(kind.setPosition);
                tops.get(kind).put(key, position);
                loaded.get(kind).remove(key);
            }
            dirtyFrom.get(kind).clear();
        }
    }

    /** The counters as {@link #storeCounters} wrote them: what holds once the transaction committed. */
    Map<Kind, Map<String, Long>> finalCounters() {
        return finalCounters;
    }

    /** Writes the counters (highest positions) that changed. */
    void storeCounters() throws SQLException {
        sql.executeAllBatches();
        for (Kind kind : Kind.values()) {
            List<Map.Entry<String, Long>> changed = new ArrayList<>();
            for (Map.Entry<String, Long> e : tops.get(kind).entrySet()) {
                Long before = loaded.get(kind).get(e.getKey());
                if (before == null || before.longValue() != e.getValue()) {
                    changed.add(e);
                }
            }
            Counters.set(sql, kind.setCount, kind.insertCount, changed);
            finalCounters.get(kind).putAll(tops.get(kind));
            tops.get(kind).clear();
            loaded.get(kind).clear();
        }
    }
}
