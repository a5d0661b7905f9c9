package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Query;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of per-address histories (the per-principal index, migration V10): a row's position
 * through the generic mapper, the pages with their count in plain JDBC, one statement per page (rows
 * read by column position: the generic mapper cost a quarter of the page's CPU time, and each
 * further statement a round trip).
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
abstract class AddressStore implements GenericRepository<AddressTxRow, String> {

    /**
     * The current position of a served row, when it is still served. The history's key leads with
     * the block's height and hash (migration V205), so the transaction's blocks come from its own key first.
     */
    static final String FIND_POSITION = "SELECT p.history_position FROM txs t JOIN principal_txs p"
            + " ON p.block_height = t.block_height AND p.index_block_hash = t.index_block_hash"
            + " AND p.principal = :principal AND p.tx_id = t.tx_id"
            + " WHERE t.tx_id = :txId AND p.canonical = TRUE AND p.microblock_canonical = TRUE";

    /**
     * For a contract call's row {@code t}, the called contract's latest canonical successful
     * deployment, the one whose ABI the answer uses (as {@link ContractQueries#abis}; no ABI when that
     * deployment has none), ordered to the full key so that ties pick one row: its block, then a space
     * and its tx id when it has an ABI (hex, so the space separates). One scalar subquery for both
     * values, run for contract calls only: before, a subquery per value ran for every row of the page,
     * each with its own scan and sort, about a third of PostgreSQL's CPU time for the page (perf on its
     * backends under wrk); the statement's executor time fell from ~350 to ~170 µs on the
     * 10,000-transaction chain and from ~200 to ~150 µs on the 100,000 one (a loop in PL/pgSQL on a
     * loaded machine). H2 has no LATERAL join, which would return both values as columns.
     */
    private static final String CALLED_DEPLOYMENT = "CASE WHEN t.tx_type = 'contract_call' THEN"
            + " (SELECT s.index_block_hash || CASE WHEN s.abi IS NULL THEN '' ELSE ' ' || s.tx_id END"
            + " FROM smart_contracts s WHERE s.contract_id = t.contract_id AND s.canonical = TRUE"
            + " AND s.tx_status = 'success'"
            + " ORDER BY s.block_height DESC, s.microblock_sequence DESC, s.tx_index DESC, s.tx_id, s.index_block_hash"
            + " LIMIT 1) END";

    /**
     * A page of a principal's history in one round trip: the principal's transaction count
     * (principal_stats) and the positions' version (chain_state, V210), then the rows at positions (top - limit, top], top = min(count - offset, cap),
     * newest first (principal_txs_position_idx), each joined with its transaction. The count comes from
     * a one-row CTE that the page is LEFT JOINed to, so that a page past the end still answers the
     * count (one row of NULLs). On PostgreSQL the CTE is inlined as an InitPlan and the range stays an
     * index condition under custom and generic plans alike (ReadPlansPostgresTest). A contract call's
     * row also names the deployment whose ABI names its arguments ({@link #CALLED_DEPLOYMENT}), so that
     * the ABI comes from a cache keyed by that deployment instead of a second statement per page.
     * Parameters: principal, principal, offset, cap, offset, cap, limit.
     */
    static final String HISTORY_PAGE = "WITH tip AS (SELECT COALESCE((SELECT tx_count FROM principal_stats"
            + " WHERE principal = ?), 0) AS total, (SELECT positions_version FROM chain_state WHERE id = 1) AS positions)"
            + " SELECT tip.total, tip.positions, " + AddressTxRow.COLUMNS + ", " + PlainJdbc.prefixed("t.", TxRow.COLUMNS)
            + ", t.contract_id, " + CALLED_DEPLOYMENT
            + " FROM tip LEFT JOIN principal_txs p ON p.principal = ?"
            + " AND p.history_position <= LEAST(tip.total - ?, ?) AND p.history_position > LEAST(tip.total - ?, ?) - ?"
            + " LEFT JOIN txs t ON t.tx_id = p.tx_id AND t.index_block_hash = p.index_block_hash"
            + " AND t.canonical = TRUE AND t.microblock_canonical = TRUE"
            + " ORDER BY p.history_position DESC";

    /** Where the transaction's columns start in a {@link #HISTORY_PAGE} row (after count, version and activity). */
    private static final int HISTORY_TX_AT = 3 + AddressTxRow.COLUMNS.split(",").length;

    /** Where the called contract and its deployment ({@link #CALLED_DEPLOYMENT}) start in a {@link #HISTORY_PAGE} row. */
    private static final int CALLED_AT = HISTORY_TX_AT + TxRow.COLUMNS.split(",").length;

    /**
     * One history row with its transaction, which is null if the transaction is not canonical, and for
     * a contract call, the deployment whose ABI names its arguments (null when there is none).
     */
    record HistoryRow(AddressTxRow activity, TxRow tx, @Nullable Deployment calledAbi) {
    }

    /** A page of a principal's history: its count and positions' version, and the page's rows, newest first. */
    record HistoryPage(AddressQueries.HistoryTops tops, List<HistoryRow> rows) {

        long total() {
            return tops.total();
        }
    }

    private final DataSource dataSource;

    AddressStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    @Query(FIND_POSITION)
    abstract Optional<Long> findPosition(String principal, String txId);

    /**
     * At most {@code limit} rows of a principal's history from position min(count - {@code offset},
     * {@code cap}) down, with the count.
     */
    HistoryPage historyPage(String principal, long offset, long cap, int limit) {
        long[] tops = {0, 0};
        List<HistoryRow> rows = new ArrayList<>(limit);
        PlainJdbc.query(dataSource, "query", HISTORY_PAGE, ps -> {
            ps.setString(1, principal);
            ps.setString(2, principal);
            ps.setLong(3, offset);
            ps.setLong(4, cap);
            ps.setLong(5, offset);
            ps.setLong(6, cap);
            ps.setLong(7, limit);
        }, rs -> {
            tops[0] = rs.getLong(1);
            tops[1] = rs.getLong(2);
            if (rs.getString(3) != null) { // NULLs: no row on this page
                String called = rs.getString(CALLED_AT + 1);
                int space = called == null ? -1 : called.indexOf(' ');
                rows.add(new HistoryRow(AddressTxRow.read(rs, 3),
                        rs.getString(HISTORY_TX_AT) == null ? null : TxRow.read(rs, HISTORY_TX_AT),
                        space < 0 ? null : new Deployment(rs.getString(CALLED_AT), called.substring(space + 1),
                                called.substring(0, space))));
            }
            return null;
        });
        return new HistoryPage(new AddressQueries.HistoryTops(tops[0], tops[1]), rows);
    }
}
