package io.stacksexplorer.query;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The SQL that translates between a row's place in chain order (the peer's cursor text) and its
 * dense position (migration V10) in a principal's history or a contract's log events, and the log
 * page that carries each event's place. Every statement here is a point lookup or one index range
 * of at most a page: a block's rows through the keys that lead with the block height (V205), a
 * position through the position indexes (V10). Plain JDBC, as the other hot reads ({@link PlainJdbc}).
 */
@Singleton
class ChainOrderStore {

    /**
     * The canonical block at a height, so that a lookup through a block's key names the whole block:
     * with the height alone the key's range is the height's rows, and planners (H2's always, and
     * PostgreSQL's under a generic plan, which guesses a principal's rows from the average) preferred
     * the position index and read the principal's history down to the row (FlatCostContract).
     */
    private static final String CANONICAL_BLOCK = "(SELECT b.index_block_hash FROM blocks b"
            + " WHERE b.block_height = ? AND b.canonical = TRUE)";

    /** The position of a principal's served row at a place in chain order, through its block (V205's key). */
    static final String HISTORY_POSITION_AT = "SELECT history_position FROM principal_txs"
            + " WHERE block_height = ? AND index_block_hash = " + CANONICAL_BLOCK + " AND principal = ?"
            + " AND microblock_sequence = ? AND tx_index = ?"
            + " AND canonical = TRUE AND microblock_canonical = TRUE AND history_position IS NOT NULL";

    /** The place in chain order of a principal's row at a position (principal_txs_position_idx). */
    static final String HISTORY_KEY_AT = "SELECT block_height, microblock_sequence, tx_index FROM principal_txs"
            + " WHERE principal = ? AND history_position = ?";

    static final String HISTORY_COUNT = "SELECT tx_count FROM principal_stats WHERE principal = ?";

    /** The position of a contract's anchored log event at a place in chain order, through its block (tx_events' key). */
    static final String LOG_POSITION_AT = "SELECT log_position FROM tx_events WHERE block_height = ?"
            + " AND index_block_hash = " + CANONICAL_BLOCK + " AND contract_id = ? AND microblock_sequence = ?"
            + " AND tx_index = ? AND event_index = ? AND log_position IS NOT NULL AND is_unanchored = FALSE";

    /** The place in chain order of a contract's log event at a position (tx_events_log_position_idx). */
    static final String LOG_KEY_AT = "SELECT block_height, microblock_sequence, tx_index, event_index FROM tx_events"
            + " WHERE contract_id = ? AND log_position = ? AND log_position IS NOT NULL";

    /**
     * A contract's log event count (contract_log_stats) and the position of its newest anchored event,
     * found by walking the position index down from the top as {@link ContractStore#LOG_PAGE} does.
     */
    static final String LOG_TIP = "SELECT"
            + " COALESCE((SELECT event_count FROM contract_log_stats WHERE contract_id = ?), 0),"
            + " COALESCE((SELECT log_position FROM tx_events WHERE contract_id = ? AND log_position IS NOT NULL"
            + " AND is_unanchored = FALSE ORDER BY contract_id DESC, log_position DESC LIMIT 1), 0)"
            + " FROM chain_state WHERE id = 1";

    /**
     * The log events at positions (top - count, top], newest first, each with its place in chain order
     * (the event's own columns from the fifth on, its event index the sixth).
     */
    static final String LOG_ROWS = "SELECT e.log_position, e.block_height, e.microblock_sequence, e.tx_index, "
            + PlainJdbc.prefixed("e.", EventRow.COLUMNS) + " FROM tx_events e WHERE e.contract_id = ?"
            + " AND e.log_position <= ? AND e.log_position > ? ORDER BY e.log_position DESC";

    /** A log event with its position and its place in chain order. */
    record PlacedEvent(long position, ChainKey key, EventRow event) {
    }

    private final DataSource dataSource;

    ChainOrderStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    Optional<Long> historyPositionAt(String principal, ChainKey key) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", HISTORY_POSITION_AT, ps -> {
            ps.setLong(1, key.blockHeight());
            ps.setLong(2, key.blockHeight());
            ps.setString(3, principal);
            ps.setInt(4, key.microblockSequence());
            ps.setInt(5, key.txIndex());
        }, rs -> rs.getLong(1)));
    }

    Optional<ChainKey> historyKeyAt(String principal, long position) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", HISTORY_KEY_AT, ps -> {
            ps.setString(1, principal);
            ps.setLong(2, position);
        }, rs -> new ChainKey(rs.getLong(1), rs.getInt(2), rs.getInt(3), 0)));
    }

    long historyCount(String principal) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", HISTORY_COUNT, ps -> ps.setString(1, principal),
                rs -> rs.getLong(1))).orElse(0L);
    }

    Optional<Long> logPositionAt(String contractId, ChainKey key) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", LOG_POSITION_AT, ps -> {
            ps.setLong(1, key.blockHeight());
            ps.setLong(2, key.blockHeight());
            ps.setString(3, contractId);
            ps.setInt(4, key.microblockSequence());
            ps.setInt(5, key.txIndex());
            ps.setInt(6, key.eventIndex());
        }, rs -> rs.getLong(1)));
    }

    Optional<ChainKey> logKeyAt(String contractId, long position) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", LOG_KEY_AT, ps -> {
            ps.setString(1, contractId);
            ps.setLong(2, position);
        }, ChainOrderStore::key));
    }

    /** {count, newest anchored position} of a contract's log events. */
    long[] logTip(String contractId) {
        return PlainJdbc.query(dataSource, "query", LOG_TIP, ps -> {
            ps.setString(1, contractId);
            ps.setString(2, contractId);
        }, rs -> new long[]{rs.getLong(1), rs.getLong(2)}).stream().findFirst().orElse(new long[]{0, 0});
    }

    List<PlacedEvent> logRows(String contractId, long top, int count) {
        return PlainJdbc.query(dataSource, "query", LOG_ROWS, ps -> {
            ps.setString(1, contractId);
            ps.setLong(2, top);
            ps.setLong(3, top - count);
        }, rs -> new PlacedEvent(rs.getLong(1), new ChainKey(rs.getLong(2), rs.getInt(3), rs.getInt(4),
                rs.getInt(6)), EventRow.read(rs, 5)));
    }

    private static ChainKey key(ResultSet rs) throws SQLException {
        return new ChainKey(rs.getLong(1), rs.getInt(2), rs.getInt(3), rs.getInt(4));
    }
}
