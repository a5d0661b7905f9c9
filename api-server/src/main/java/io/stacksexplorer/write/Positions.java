package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;

import static io.stacksexplorer.write.Table.*;
import static io.stacksexplorer.write.WriteStatement.reading;
import static io.stacksexplorer.write.WriteStatement.writing;

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

    // --- SQL (V10): renumbering the newest rows of one principal or contract -----------------------

    /** Principals whose history one block (at its height: all rows of a block share it) holds. */
    static final WriteStatement HISTORY_KEYS_OF_BLOCK = reading(PRINCIPAL_TXS).sql(
            "SELECT DISTINCT principal FROM principal_txs WHERE block_height = ? AND index_block_hash = ?");
    /*
     * Renumbering reads the position index (V10), not an index in chain order: served rows, and only
     * they, carry a position, dense and in chain order, once a transaction ends. So the newest served
     * row below the fork height is found by walking that index down from the top (past the rows
     * being renumbered anyway), and the rows to renumber are those numbered above it plus the served
     * rows of the blocks that changed (their positions were cleared or never set).
     * The ORDER BY names the principal (a constant here) so that H2 too walks the index backwards:
     * its planner uses an index's order only when the ORDER BY spells the index's leading columns,
     * and without them it read a principal's whole history for every block that touched it.
     */
    /**
     * The position of the newest numbered row below a height (0 when none), then the rows numbered
     * above it (key columns, chain-order columns, position), in one statement: a row of the
     * position alone (nulls after it) when none is numbered above.
     */
    static final WriteStatement HISTORY_RENUMBER_FROM = reading(PRINCIPAL_TXS).sql("""
            SELECT b.below, t.tx_id, t.index_block_hash, t.block_height, t.microblock_sequence, t.tx_index,
                t.history_position
            FROM (SELECT COALESCE((SELECT history_position FROM principal_txs
                    WHERE principal = ? AND history_position IS NOT NULL AND block_height < ?
                    ORDER BY principal DESC, history_position DESC FETCH FIRST 1 ROWS ONLY), 0) AS below) b
            LEFT JOIN principal_txs t ON t.principal = ? AND t.history_position > b.below""");
    /**
     * Served rows of one block, each led by its principal, then the same columns. One read per
     * changed block, not per block and principal; and it names only the block (height and hash), so that H2 cannot
     * choose an index that leads with the principal (or contract) and read its whole list.
     */
    static final WriteStatement HISTORY_SERVED_IN_BLOCK = reading(PRINCIPAL_TXS).sql("""
            SELECT principal, tx_id, index_block_hash, block_height, microblock_sequence, tx_index, history_position
            FROM principal_txs
            WHERE block_height = ? AND index_block_hash = ? AND canonical = TRUE AND microblock_canonical = TRUE""");
    static final WriteStatement SET_HISTORY_POSITION = writing(PRINCIPAL_TXS).sql("""
            UPDATE principal_txs SET history_position = ?
            WHERE principal = ? AND tx_id = ? AND index_block_hash = ? AND block_height = ?""");

    static final WriteStatement LOG_KEYS_OF_BLOCK = reading(TX_EVENTS).sql("""
            SELECT DISTINCT contract_id FROM tx_events
            WHERE block_height = ? AND index_block_hash = ? AND event_type = 'smart_contract_log'""");
    static final WriteStatement LOG_RENUMBER_FROM = reading(TX_EVENTS).sql("""
            SELECT b.below, t.tx_id, t.index_block_hash, t.event_index, t.block_height, t.microblock_sequence,
                t.tx_index, t.log_position
            FROM (SELECT COALESCE((SELECT log_position FROM tx_events
                    WHERE contract_id = ? AND log_position IS NOT NULL AND block_height < ?
                    ORDER BY contract_id DESC, log_position DESC FETCH FIRST 1 ROWS ONLY), 0) AS below) b
            LEFT JOIN tx_events t ON t.contract_id = ? AND t.log_position > b.below""");
    static final WriteStatement LOG_SERVED_IN_BLOCK = reading(TX_EVENTS).sql("""
            SELECT contract_id, tx_id, index_block_hash, event_index, block_height, microblock_sequence, tx_index,
                log_position
            FROM tx_events
            WHERE block_height = ? AND index_block_hash = ? AND canonical = TRUE AND microblock_canonical = TRUE
              AND event_type = 'smart_contract_log'""");
    static final WriteStatement SET_LOG_POSITION = writing(TX_EVENTS).sql("""
            UPDATE tx_events SET log_position = ?
            WHERE contract_id = ? AND tx_id = ? AND index_block_hash = ? AND event_index = ? AND block_height = ?""");

    /** The two numbered lists, with their SQL and the kind of key of their counters. */
    enum Kind {
        HISTORY(2, HISTORY_KEYS_OF_BLOCK, HISTORY_RENUMBER_FROM,
                HISTORY_SERVED_IN_BLOCK, SET_HISTORY_POSITION, WriteSql.PRINCIPAL_COUNT,
                WriteSql.SET_PRINCIPAL_COUNT, WriteSql.SET_PRINCIPAL_COUNTS_POSTGRESQL, WriteSql.INSERT_PRINCIPAL_COUNT,
                WrittenKeys.Kind.PRINCIPAL_COUNTERS),
        LOGS(3, LOG_KEYS_OF_BLOCK, LOG_RENUMBER_FROM,
                LOG_SERVED_IN_BLOCK, SET_LOG_POSITION, WriteSql.CONTRACT_LOG_COUNT,
                WriteSql.SET_CONTRACT_LOG_COUNT, WriteSql.SET_CONTRACT_LOG_COUNTS_POSTGRESQL,
                WriteSql.INSERT_CONTRACT_LOG_COUNT, WrittenKeys.Kind.CONTRACT_LOG_COUNTERS);

        /**
         * Rows read for renumbering are the row's key columns (tx_id, index_block_hash[, event_index]),
         * then block_height, microblock_sequence, tx_index, then the current position.
         */
        final int keyColumns;
        final WriteStatement keysOfBlock;
        final WriteStatement renumberFrom;
        final WriteStatement servedInBlock;
        final WriteStatement setPosition;
        final WriteStatement count;
        final WriteStatement setCount;
        final WriteStatement setCountsPostgresql;
        final WriteStatement insertCount;
        final WrittenKeys.Kind counterKeys;

        Kind(int keyColumns, WriteStatement keysOfBlock, WriteStatement renumberFrom, WriteStatement servedInBlock,
             WriteStatement setPosition, WriteStatement count, WriteStatement setCount,
             WriteStatement setCountsPostgresql, WriteStatement insertCount, WrittenKeys.Kind counterKeys) {
            this.keyColumns = keyColumns;
            this.keysOfBlock = keysOfBlock;
            this.renumberFrom = renumberFrom;
            this.servedInBlock = servedInBlock;
            this.setPosition = setPosition;
            this.count = count;
            this.setCount = setCount;
            this.setCountsPostgresql = setCountsPostgresql;
            this.insertCount = insertCount;
            this.counterKeys = counterKeys;
        }

        /** Chain order: block_height, microblock_sequence, tx_index[, event_index], then tx_id. */
        int compare(Object[] a, Object[] b) {
            for (int column = keyColumns; column < keyColumns + 3; column++) {
                int c = Long.compare(((Number) a[column]).longValue(), ((Number) b[column]).longValue());
                if (c != 0) {
                    return c;
                }
            }
            if (keyColumns == 3) {
                int c = Long.compare(((Number) a[2]).longValue(), ((Number) b[2]).longValue());
                if (c != 0) {
                    return c;
                }
            }
            return ((String) a[0]).compareTo((String) b[0]);
        }

        /** The row's key columns joined, to tell rows apart. */
        String keyOf(Object[] row) {
            StringBuilder key = new StringBuilder();
            for (int i = 0; i < keyColumns; i++) {
                key.append(row[i]).append('/');
            }
            return key.toString();
        }
    }

    private final Statements sql;
    private final CommittedCounters committed;
    /** The counters this transaction ends with, for {@link CommittedCounters} once it committed. */
    private final Map<Kind, Map<String, Long>> finalCounters = new EnumMap<>(Kind.class);
    private final Map<Kind, Map<String, Long>> tops = new HashMap<>();
    private final Map<Kind, Map<String, Long>> loaded = new HashMap<>();
    private final Map<Kind, Map<String, Long>> dirtyFrom = new HashMap<>();
    /** Per list, the blocks (or microblock streams) that changed: their served rows may have no position. */
    private final Map<Kind, Map<String, Set<BlockAt>>> dirtyBlocks = new HashMap<>();

    /**
     * A block or microblock stream as its rows name it: every row of one carries its height, which
     * leads the keys that find them (V205).
     */
    record BlockAt(String indexBlockHash, long height) {
    }

    Positions(Statements sql, CommittedCounters committed) {
        this.sql = sql;
        this.committed = committed;
        for (Kind kind : Kind.values()) {
            finalCounters.put(kind, new HashMap<>());
            tops.put(kind, new HashMap<>());
            loaded.put(kind, new HashMap<>());
            dirtyFrom.put(kind, new HashMap<>());
            dirtyBlocks.put(kind, new HashMap<>());
        }
    }

    /** The position of a new served row appended on top of {@code key}'s list. */
    long next(Kind kind, String key) throws SQLException {
        Map<String, Long> top = tops.get(kind);
        Long current = top.get(key);
        if (current == null) {
            current = committed.get(kind, key);
            if (current == null) {
                // A key without a counter row (none written: WrittenKeys) has an empty list.
                List<Long> stored = sql.mayBeStored(kind.counterKeys, List.of(key)).isEmpty() ? List.of()
                        : sql.query(kind.count, rs -> rs.getLong(1), key);
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
        WriteStatement counts = kind == Kind.HISTORY ? WriteSql.PRINCIPAL_COUNTS_IN_CHUNK
                : WriteSql.CONTRACT_LOG_COUNTS_IN_CHUNK;
        // Keys whose counter row was never written (WrittenKeys) are not asked: their lists are empty.
        for (Object[] row : sql.queryIn(counts, sql.mayBeStored(kind.counterKeys, missing),
                rs -> new Object[]{rs.getString(1), rs.getLong(2)})) {
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
    void dirty(String indexBlockHash, long height) throws SQLException {
        for (Kind kind : Kind.values()) {
            for (String key : sql.query(kind.keysOfBlock, rs -> rs.getString(1), height, indexBlockHash)) {
                dirty(kind, key, height, indexBlockHash);
            }
        }
    }

    /**
     * Marks one list for renumbering from {@code height}, for rows of {@code indexBlockHash} (a
     * block or microblock stream) that the caller knows without reading them back: rows it has
     * just queued.
     */
    void dirty(Kind kind, String key, long height, String indexBlockHash) {
        dirtyFrom.get(kind).merge(key, height, Math::min);
        dirtyBlocks.get(kind).computeIfAbsent(key, k -> new HashSet<>()).add(new BlockAt(indexBlockHash, height));
    }

    /**
     * Renumbers the served rows of every dirty list from its lowest touched height up, after the
     * flags changed and the rows were written; rows whose number is unchanged are not touched.
     *
     * <p>Below that height nothing changed, so the rows there keep their dense numbers 1..below.
     * At or above it, the served rows are those still numbered (a flag change clears the number of
     * every row it touches, so a numbered row is a served one) and the served rows of the changed
     * blocks; they are numbered below + 1, … in chain order.
     */
    void renumber() throws SQLException {
        // Any dirty list: served rows below the top changed (a flag flip, a settled or new stream),
        // whether or not their numbers do (a settled row's anchored copy takes its number).
        boolean touched = false;
        for (Kind kind : Kind.values()) {
            touched |= !dirtyFrom.get(kind).isEmpty();
            // The served rows of each changed block by key, read once whatever the number of keys.
            Map<BlockAt, Map<String, List<Object[]>>> servedOfBlock = new HashMap<>();
            for (Map.Entry<String, Long> d : dirtyFrom.get(kind).entrySet()) {
                String key = d.getKey();
                long position = 0;
                Map<String, Object[]> served = new HashMap<>();
                for (Object[] row : sql.query(kind.renumberFrom, Positions::columns, key, d.getValue(), key)) {
                    // The newest position below, then (unless none) a row numbered above it.
                    position = ((Number) row[0]).longValue();
                    if (row[1] != null) {
                        Object[] numbered = Arrays.copyOfRange(row, 1, row.length);
                        served.put(kind.keyOf(numbered), numbered);
                    }
                }
                for (BlockAt block : dirtyBlocks.get(kind).getOrDefault(key, Set.of())) {
                    if (!servedOfBlock.containsKey(block)) {
                        servedOfBlock.put(block, servedByKey(kind, block));
                    }
                    for (Object[] row : servedOfBlock.get(block).getOrDefault(key, List.of())) {
                        served.put(kind.keyOf(row), row);
                    }
                }
                List<Object[]> rows = new ArrayList<>(served.values());
                rows.sort(kind::compare);
                for (Object[] row : rows) {
                    position++;
                    Object old = row[row.length - 1];
                    if (old == null || ((Number) old).longValue() != position) {
                        // The row's key columns, then its block height (the column after them).
                        Object[] params = new Object[3 + kind.keyColumns];
                        params[0] = position;
                        params[1] = key;
                        System.arraycopy(row, 0, params, 2, kind.keyColumns + 1);
                        sql.addBatch(kind.setPosition, params);
                    }
                }
                sql.executeBatch(kind.setPosition);
                tops.get(kind).put(key, position);
                loaded.get(kind).remove(key);
            }
            dirtyFrom.get(kind).clear();
            dirtyBlocks.get(kind).clear();
        }
        if (touched) {
            // Readers that keep page parts apart join only parts read at one version (V210).
            sql.addBatch(WriteSql.BUMP_POSITIONS_VERSION);
        }
    }

    /** The served rows of one block by list key (the statement's first column, not kept in the row). */
    private Map<String, List<Object[]>> servedByKey(Kind kind, BlockAt block) throws SQLException {
        Map<String, List<Object[]>> byKey = new HashMap<>();
        for (Object[] row : sql.query(kind.servedInBlock, Positions::columns, block.height(),
                block.indexBlockHash())) {
            byKey.computeIfAbsent((String) row[0], k -> new ArrayList<>()).add(Arrays.copyOfRange(row, 1, row.length));
        }
        return byKey;
    }

    private static Object[] columns(java.sql.ResultSet rs) throws SQLException {
        Object[] row = new Object[rs.getMetaData().getColumnCount()];
        for (int i = 0; i < row.length; i++) {
            row[i] = rs.getObject(i + 1);
        }
        return row;
    }

    /** The counters as {@link #storeCounters} wrote them: what holds once the transaction committed. */
    Map<Kind, Map<String, Long>> finalCounters() {
        return finalCounters;
    }

    /** Writes the counters (highest positions) that changed. */
    void storeCounters() throws SQLException {
        for (Kind kind : Kind.values()) {
            List<Map.Entry<String, Long>> changed = new ArrayList<>();
            for (Map.Entry<String, Long> e : tops.get(kind).entrySet()) {
                Long before = loaded.get(kind).get(e.getKey());
                if (before == null || before.longValue() != e.getValue()) {
                    changed.add(e);
                }
            }
            Counters.set(sql, kind.setCount, kind.setCountsPostgresql, kind.insertCount, changed);
            finalCounters.get(kind).putAll(tops.get(kind));
            tops.get(kind).clear();
            loaded.get(kind).clear();
        }
    }
}
