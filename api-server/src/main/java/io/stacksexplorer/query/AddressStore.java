package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import javax.sql.DataSource;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of per-address histories (the per-principal index, migration V10): its counter and
 * positions through the generic mapper, its pages in plain JDBC (rows read by column position: the
 * generic mapper cost a quarter of the page's CPU time).
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
abstract class AddressStore implements GenericRepository<AddressTxRow, String> {

    static final String COUNT_HISTORY = "SELECT tx_count FROM principal_stats WHERE principal = :principal";

    /**
     * The current position of a served row, when it is still served. The history's key leads with
     * the block (migration V104), so the transaction's blocks come from its own key first.
     */
    static final String FIND_POSITION = "SELECT p.history_position FROM txs t JOIN principal_txs p"
            + " ON p.index_block_hash = t.index_block_hash AND p.principal = :principal AND p.tx_id = t.tx_id"
            + " WHERE t.tx_id = :txId AND p.canonical = TRUE AND p.microblock_canonical = TRUE";

    /**
     * Rows at positions (below, top] of a principal's history, newest first (principal_txs_position_idx),
     * joined with their transactions: one query instead of two.
     */
    static final String HISTORY_RANGE = "SELECT " + AddressTxRow.COLUMNS + ", "
            + PlainJdbc.prefixed("t.", TxRow.COLUMNS) + " FROM principal_txs p"
            + " LEFT JOIN txs t ON t.tx_id = p.tx_id AND t.index_block_hash = p.index_block_hash"
            + " AND t.canonical = TRUE AND t.microblock_canonical = TRUE"
            + " WHERE p.principal = ? AND p.history_position <= ? AND p.history_position > ?"
            + " ORDER BY p.history_position DESC";

    /** Where the transaction's columns start in a {@link #HISTORY_RANGE} row. */
    private static final int HISTORY_TX_AT = 1 + AddressTxRow.COLUMNS.split(",").length;

    /** One history row with its transaction, which is null if the transaction is not canonical. */
    record HistoryRow(AddressTxRow activity, TxRow tx) {
    }

    private final DataSource dataSource;

    AddressStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    @Query(COUNT_HISTORY)
    abstract Optional<Long> countHistory(String principal);

    @Query(FIND_POSITION)
    abstract Optional<Long> findPosition(String principal, String txId);

    List<HistoryRow> historyRange(String principal, long top, long below) {
        return PlainJdbc.query(dataSource, "query", HISTORY_RANGE, ps -> {
            ps.setString(1, principal);
            ps.setLong(2, top);
            ps.setLong(3, below);
        }, rs -> {
            AddressTxRow activity = AddressTxRow.read(rs, 1);
            return new HistoryRow(activity,
                    rs.getString(HISTORY_TX_AT) == null ? null : TxRow.read(rs, HISTORY_TX_AT));
        });
    }
}
