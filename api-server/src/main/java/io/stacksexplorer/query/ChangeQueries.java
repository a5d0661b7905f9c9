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
import java.util.List;

/**
 * Reads of the change log (migration V200) for subscriptions, and who a changed transaction
 * concerns: the store of the "changes" aggregate, whose SQL is all here. Plain JDBC on the pool
 * ({@link PlainJdbc}) like the other stores' hot reads: the poll runs every few tens of milliseconds
 * on every server.
 */
@Singleton
public class ChangeQueries {

    /**
     * One change as the write path logged it; {@code indexBlockHash} is null for mempool changes and
     * for a microblock the anchored block it builds on, with its header in {@code microblock}.
     */
    public record Change(long position, String kind, String indexBlockHash, String txId, long recordedAt,
                         MicroblockHeader microblock) {

        public Change(long position, String kind, String indexBlockHash, String txId, long recordedAt) {
            this(position, kind, indexBlockHash, txId, recordedAt, null);
        }
    }

    /** A microblock as the node announced it; the burn block fields are null when it did not say. */
    public record MicroblockHeader(String hash, int sequence, String parentHash, String parentBurnBlockHash,
                                   Long parentBurnBlockHeight, Long parentBurnBlockTime) {
    }

    /** The transactions of a microblock now: their ids in order, and whether any row still counts it. */
    public record MicroblockTxs(List<String> txIds, boolean microblockCanonical) {
    }

    private static final String AFTER = "SELECT position, kind, index_block_hash, tx_id, recorded_at, microblock_hash,"
            + " microblock_sequence, microblock_parent_hash, parent_burn_block_hash, parent_burn_block_height,"
            + " parent_burn_block_time FROM change_log WHERE position > ? ORDER BY position LIMIT ?";
    /**
     * The rows of a microblock's transactions: unanchored ones, or the rows of the anchor blocks that
     * confirmed it (txs_microblock_idx).
     */
    private static final String MICROBLOCK_TXS = "SELECT tx_id, microblock_canonical FROM txs WHERE microblock_hash = ?"
            + " ORDER BY tx_index, tx_id";
    private static final String HEAD = "SELECT COALESCE(MAX(position), 0) FROM change_log";
    /** The oldest change kept (the writer prunes by age, never the last row); 0 when none was logged. */
    private static final String OLDEST = "SELECT COALESCE(MIN(position), 0) FROM change_log";
    /** A transaction as mined in one block (canonical or not by now), with a page of its events. */
    public record MinedTx(TxRow tx, List<EventRow> events) {
    }

    private static final String BLOCK_ANY_FORK = "SELECT " + BlockRow.COLUMNS + " FROM blocks WHERE index_block_hash = ?";
    private static final String MINED_IN = "SELECT " + TxRow.COLUMNS + " FROM txs WHERE tx_id = ? AND index_block_hash = ?";
    private static final String MEMPOOL_ROW = "SELECT " + MempoolTxRow.COLUMNS + " FROM mempool_txs m WHERE m.tx_id = ?";
    /**
     * Whether an earlier change already announced the transaction's arrival in the mempool: on
     * PostgreSQL through the partial change_log_mempool_tx_idx (V203), which the literal
     * {@code kind = 'mempool'} lets a generic plan use; on H2 through change_log_tx_idx (V200).
     */
    static final String ENTERED_BEFORE = "SELECT 1 FROM change_log WHERE tx_id = ? AND kind = 'mempool'"
            + " AND position < ? FETCH FIRST 1 ROWS ONLY";
    /**
     * The per-principal rows of a transaction in one block, canonical or not by now; found through
     * the transaction's row, which gives the block's height that leads their key (V205).
     */
    private static final String PRINCIPALS_IN = "SELECT " + AddressTxRow.COLUMNS
            + " FROM txs t JOIN principal_txs p ON p.block_height = t.block_height"
            + " AND p.index_block_hash = t.index_block_hash AND p.tx_id = t.tx_id"
            + " WHERE t.tx_id = ? AND t.index_block_hash = ? ORDER BY p.principal";

    private final DataSource dataSource;
    private final TransactionStore txs;

    ChangeQueries(DataSource dataSource, TransactionStore txs) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.txs = txs;
    }

    /** A block by its index block hash, canonical or not by now (its {@code canonical} says which). */
    public java.util.Optional<BlockRow> block(String indexBlockHash) {
        List<BlockRow> rows = query(BLOCK_ANY_FORK, ps -> ps.setString(1, indexBlockHash), rs -> BlockRow.read(rs, 1));
        return rows.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(rows.get(0));
    }

    /** The transaction as the block {@code indexBlockHash} mined it, with its first {@code eventLimit} events. */
    public java.util.Optional<MinedTx> minedIn(String txId, String indexBlockHash, int eventLimit) {
        List<TxRow> rows = query(MINED_IN, ps -> {
            ps.setString(1, txId);
            ps.setString(2, indexBlockHash);
        }, rs -> TxRow.read(rs, 1));
        if (rows.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<EventRow> events = new ArrayList<>();
        for (BlockEventRow e : txs.eventPages(List.of(txId), 0, eventLimit)) {
            if (e.indexBlockHash().equals(indexBlockHash)) {
                events.add(e.event());
            }
        }
        return java.util.Optional.of(new MinedTx(rows.get(0), events));
    }

    /** The mempool row of a transaction that entered the mempool (kept, pruned, once it left). */
    public java.util.Optional<MempoolTxRow> mempoolRow(String txId) {
        List<MempoolTxRow> rows = query(MEMPOOL_ROW, ps -> ps.setString(1, txId),
                rs -> MempoolTxRow.read(rs, 1));
        return rows.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(rows.get(0));
    }

    /** Whether a change before {@code position} announced {@code txId} entering the mempool. */
    public boolean enteredMempoolBefore(String txId, long position) {
        return !query(ENTERED_BEFORE, ps -> {
            ps.setString(1, txId);
            ps.setLong(2, position);
        }, rs -> 1).isEmpty();
    }

    /** The per-principal rows of a transaction mined in {@code indexBlockHash}. */
    public List<AddressTxRow> principalsIn(String indexBlockHash, String txId) {
        return query(PRINCIPALS_IN, ps -> {
            ps.setString(1, txId);
            ps.setString(2, indexBlockHash);
        }, rs -> AddressTxRow.read(rs, 1));
    }

    /** Up to {@code limit} changes after {@code position}, in order. */
    public List<Change> after(long position, int limit) {
        return query(AFTER, ps -> {
            ps.setLong(1, position);
            ps.setInt(2, limit);
        }, rs -> new Change(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5),
                rs.getString(6) == null ? null : new MicroblockHeader(rs.getString(6), rs.getInt(7), rs.getString(8),
                        rs.getString(9), nullableLong(rs, 10), nullableLong(rs, 11))));
    }

    /**
     * The transactions of microblock {@code microblockHash}, each once in order; it is microblock
     * canonical unless every row of it says it was orphaned (no rows: nothing settled it).
     */
    public MicroblockTxs microblockTxs(String microblockHash) {
        List<Object[]> rows = query(MICROBLOCK_TXS, ps -> ps.setString(1, microblockHash),
                rs -> new Object[]{rs.getString(1), rs.getBoolean(2)});
        java.util.LinkedHashSet<String> ids = new java.util.LinkedHashSet<>();
        boolean canonical = rows.isEmpty();
        for (Object[] row : rows) {
            ids.add((String) row[0]);
            canonical |= (Boolean) row[1];
        }
        return new MicroblockTxs(List.copyOf(ids), canonical);
    }

    private static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    /** The oldest position still in the log (0 when nothing was logged). */
    public long oldest() {
        return query(OLDEST, ps -> { }, rs -> rs.getLong(1)).get(0);
    }

    /** The last logged position (0 when nothing was logged). */
    public long head() {
        return query(HEAD, ps -> { }, rs -> rs.getLong(1)).get(0);
    }

    private <T> List<T> query(String sql, PlainJdbc.Binder binder, PlainJdbc.Reader<T> reader) {
        return PlainJdbc.query(dataSource, "change log read", sql, binder, reader);
    }
}
