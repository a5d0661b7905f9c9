package io.stacksexplorer.query;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;

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
 * The reads of the hot routes: the pages (address history, contract events, transaction lookups) and
 * the chain tip, block and contract deployment behind the cheap routes, with rows mapped by column position ({@code read}
 * next to each row type's column list) instead of by Micronaut Data's result mapper, which looks every
 * column up by name, converts and boxes it, and adds its own per-query work: a quarter to a third of the
 * pages' CPU time, and more per request than the cheap routes cost at 055817d. Plain JDBC on the pool,
 * one statement per call; a failure is a {@link DataAccessException}, answered like any other storage
 * failure. The other, colder reads stay in the repositories.
 */
@Singleton
class DirectReads {

    /** An address history range joined with its transactions: one query instead of two. */
    private static final String HISTORY_RANGE = "SELECT " + AddressTxRow.COLUMNS + ", "
            + prefixed("t.", TxRow.COLUMNS) + " FROM principal_txs p"
            + " LEFT JOIN txs t ON t.tx_id = p.tx_id AND t.index_block_hash = p.index_block_hash"
            + " AND t.canonical = TRUE AND t.microblock_canonical = TRUE"
            + " WHERE p.principal = ? AND p.history_position <= ? AND p.history_position > ?"
            + " ORDER BY p.history_position DESC";

    private static final String CHAIN_STATE = "SELECT " + ChainStateRow.COLUMNS + " FROM chain_state WHERE id = 1";

    private static final String BLOCK = "SELECT " + BlockRow.COLUMNS + " FROM blocks WHERE canonical = TRUE";

    /**
     * Delivered blocks and microblock streams kept because the block they build on is not stored
     * (the write path marks them in node_events), and the parent the earliest such block waits for.
     */
    private static final String PAYLOADS_WAITING = """
            SELECT COALESCE(SUM(CASE WHEN event_path = '/new_block' THEN 1 ELSE 0 END), 0),
                   COALESCE(SUM(CASE WHEN event_path = '/new_microblocks' THEN 1 ELSE 0 END), 0),
                   (SELECT w.deferred_parent FROM node_events w
                    WHERE w.deferred_parent IS NOT NULL AND w.event_path = '/new_block'
                    ORDER BY w.id FETCH FIRST 1 ROWS ONLY)
            FROM node_events WHERE deferred_parent IS NOT NULL""";

    private static final String LATEST_DEPLOY = "SELECT " + ContractDeployRow.COLUMNS + " FROM smart_contracts"
            + " WHERE contract_id = ? AND canonical = TRUE AND microblock_canonical = TRUE"
            + " ORDER BY block_height DESC, microblock_sequence DESC, tx_index DESC LIMIT 1";

    private static final String LOG_RANGE = "SELECT " + EventRow.COLUMNS + " FROM tx_events WHERE contract_id = ?"
            + " AND log_position <= ? AND log_position > ? ORDER BY log_position DESC";

    private static final String CANONICAL = " AND canonical = TRUE AND microblock_canonical = TRUE"
            + " AND (is_unanchored = FALSE OR ? = TRUE)";

    /** Where the transaction's columns start in a {@link #HISTORY_RANGE} row. */
    private static final int HISTORY_TX_AT = 1 + AddressTxRow.COLUMNS.split(",").length;

    /** One history row with its transaction, which is null if the transaction is not canonical. */
    record HistoryRow(AddressTxRow activity, TxRow tx) {
    }

    private final DataSource dataSource;

    DirectReads(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** The single chain_state row. */
    ChainStateRow chainState() {
        List<ChainStateRow> rows = query(CHAIN_STATE, ps -> { }, rs -> ChainStateRow.read(rs, 1));
        if (rows.isEmpty()) {
            throw new DataAccessException("the chain_state row is missing");
        }
        return rows.get(0);
    }

    BlocksWaiting blocksWaitingForParent() {
        return query(PAYLOADS_WAITING, ps -> { }, rs -> new BlocksWaiting(rs.getLong(1), rs.getString(3), rs.getLong(2)))
                .get(0);
    }

    /** The canonical block at a height. */
    Optional<BlockRow> blockAtHeight(long height) {
        return first(query(BLOCK + " AND block_height = ?", ps -> ps.setLong(1, height), rs -> BlockRow.read(rs, 1)));
    }

    /** The canonical block whose block hash or index block hash this is. */
    Optional<BlockRow> blockByHash(String hash) {
        return first(query(BLOCK + " AND (block_hash = ? OR index_block_hash = ?) ORDER BY block_height DESC LIMIT 1",
                ps -> {
                    ps.setString(1, hash);
                    ps.setString(2, hash);
                }, rs -> BlockRow.read(rs, 1)));
    }

    /** The canonical tip block. */
    Optional<BlockRow> latestBlock() {
        return first(query(BLOCK + " ORDER BY block_height DESC LIMIT 1", ps -> { }, rs -> BlockRow.read(rs, 1)));
    }

    /** The latest canonical deployment attempt of a contract (contract status). */
    Optional<ContractDeployRow> latestDeploy(String contractId) {
        return first(query(LATEST_DEPLOY, ps -> ps.setString(1, contractId), rs -> ContractDeployRow.read(rs, 1)));
    }

    /** Rows at positions (below, top] of a principal's history, newest first (principal_txs_position_idx). */
    List<HistoryRow> historyRange(String principal, long top, long below) {
        return query(HISTORY_RANGE, ps -> {
            ps.setString(1, principal);
            ps.setLong(2, top);
            ps.setLong(3, below);
        }, rs -> {
            AddressTxRow activity = AddressTxRow.read(rs, 1);
            return new HistoryRow(activity,
                    rs.getString(HISTORY_TX_AT) == null ? null : TxRow.read(rs, HISTORY_TX_AT));
        });
    }

    /** Log events at positions (below, top] of a contract, newest first (tx_events_log_position_idx). */
    List<EventRow> logRange(String contractId, long top, long below) {
        return query(LOG_RANGE, ps -> {
            ps.setString(1, contractId);
            ps.setLong(2, top);
            ps.setLong(3, below);
        }, rs -> EventRow.read(rs, 1));
    }

    /** Canonical mined rows of the given ids; unanchored microblock rows only when asked. */
    List<TxRow> canonicalTxs(Collection<String> txIds, boolean unanchored) {
        List<String> ids = List.copyOf(txIds);
        if (ids.isEmpty()) {
            return List.of();
        }
        return query("SELECT " + TxRow.COLUMNS + " FROM txs WHERE tx_id IN (" + placeholders(ids.size()) + ")"
                + CANONICAL, ps -> {
                    for (int i = 0; i < ids.size(); i++) {
                        ps.setString(i + 1, ids.get(i));
                    }
                    ps.setBoolean(ids.size() + 1, unanchored);
                }, rs -> TxRow.read(rs, 1));
    }

    /**
     * Events {@code from .. to - 1} of each (tx_id, index_block_hash) whose tx_id is given, by primary key
     * range (event_index is the event's position within its transaction). The events' key leads with
     * the block (migration V105), so the blocks that mined each transaction come from txs first.
     */
    List<BlockEventRow> eventPages(Collection<String> txIds, long from, long to) {
        List<String> ids = List.copyOf(txIds);
        if (ids.isEmpty()) {
            return List.of();
        }
        return query("SELECT " + prefixed("e.", BlockEventRow.COLUMNS) + " FROM txs t JOIN tx_events e"
                + " ON e.index_block_hash = t.index_block_hash AND e.tx_id = t.tx_id"
                + " WHERE t.tx_id IN (" + placeholders(ids.size()) + ") AND e.event_index >= ? AND e.event_index < ?"
                + " ORDER BY e.tx_id, e.index_block_hash, e.event_index", ps -> {
                    for (int i = 0; i < ids.size(); i++) {
                        ps.setString(i + 1, ids.get(i));
                    }
                    ps.setLong(ids.size() + 1, from);
                    ps.setLong(ids.size() + 2, to);
                }, rs -> BlockEventRow.read(rs, 1));
    }

    // ------------------------------------------------------------------------------------------

    private <T> List<T> query(String sql, PlainJdbc.Binder binder, PlainJdbc.Reader<T> reader) {
        return PlainJdbc.query(dataSource, "query", sql, binder, reader);
    }

    private static <T> Optional<T> first(List<T> rows) {
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    private static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    private static String prefixed(String prefix, String columns) {
        return Arrays.stream(columns.split(",")).map(c -> prefix + c.trim()).collect(Collectors.joining(", "));
    }
}
