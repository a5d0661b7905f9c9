package io.stacksexplorer.query;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionPayload;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads of the change log (migration V200) for subscriptions and the answer cache, and who and
 * what a changed transaction concerns: the store of the "changes" aggregate, whose SQL is all here. Plain JDBC on the pool
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

    // --- What changes reached: for the answer cache (web.AnswerInvalidation) ----------------------
    //
    // The heights of the blocks the log names, and for the transactions it names, the principals,
    // contracts and pending sets they belong to. Each query takes the rows of every fork and, for the
    // mempool, rows kept after the transaction left it: a transaction that just left the chain or the
    // mempool is found where it was.


    /** Ids per statement, so that a long backlog is read in statements of a bounded size. */
    static final int REACH_CHUNK = 500;

    /** The canonical tip's height (blocks_height_idx, newest first). */
    private static final String TIP_HEIGHT = "SELECT block_height FROM blocks WHERE canonical = TRUE"
            + " ORDER BY block_height DESC FETCH FIRST 1 ROWS ONLY";
    /**
     * Whether the newest block or microblock change is a microblock's: then transactions of
     * microblocks logged before are still unsettled. Walks the log's key backwards to the first.
     */
    private static final String LAST_IS_MICROBLOCK = "SELECT kind FROM change_log"
            + " WHERE kind IN ('block', 'microblock') ORDER BY position DESC FETCH FIRST 1 ROWS ONLY";
    private static final String HEIGHTS = "SELECT index_block_hash, block_height FROM blocks"
            + " WHERE index_block_hash IN (:ids)";
    /**
     * The principals of each mined row of the transactions, with what the row deployed; found through
     * the transaction's rows, which give the block's height that leads the history's key (V205).
     */
    private static final String MINED = "SELECT t.tx_type, t.contract_id, p.principal FROM txs t"
            + " LEFT JOIN principal_txs p ON p.block_height = t.block_height"
            + " AND p.index_block_hash = t.index_block_hash AND p.tx_id = t.tx_id WHERE t.tx_id IN (:ids)";
    /** The contracts whose log events the transactions' mined rows hold (the events' key, V205). */
    private static final String LOGGING = "SELECT DISTINCT e.contract_id FROM txs t JOIN tx_events e"
            + " ON e.block_height = t.block_height AND e.index_block_hash = t.index_block_hash AND e.tx_id = t.tx_id"
            + " WHERE t.tx_id IN (:ids) AND e.event_type = 'smart_contract_log'";
    /**
     * The mempool rows of the transactions, pending or not (a row stays after it leaves): who each
     * concerns is its sender, sponsor, deployed or called contract and, read from the raw
     * transaction, a token transfer's recipient (the write path's mempool_principals, whose rows go
     * with the transaction).
     */
    private static final String POOLED = "SELECT tx_type, sender_address, sponsor_address, contract_id, raw_tx"
            + " FROM mempool_txs WHERE tx_id IN (:ids)";

    /**
     * What a set of transactions reached; a set left empty was not asked for.
     *
     * @param principals        whose mined history holds one of them
     * @param pendingPrincipals whose mempool page holds or held one of them
     * @param contracts         deployed (mined or pending) by one of them
     * @param loggingContracts  with a log event in one of them
     * @param pendingUnknown    a pending token transfer did not decode: its recipient is not known
     */
    public record Reached(Set<String> principals, Set<String> pendingPrincipals, Set<String> contracts,
                          Set<String> loggingContracts, boolean pendingUnknown) {
    }

    /** Which of the answers' inputs to work out: the others are not asked for. */
    public record Wanted(boolean principals, boolean pending, boolean contracts, boolean logs) {
    }


    /** The canonical tip's height; -1 when there is no block. */
    public long tipHeight() {
        List<Long> rows = PlainJdbc.query(dataSource, "tip height", TIP_HEIGHT, ps -> { }, rs -> rs.getLong(1));
        return rows.isEmpty() ? -1 : rows.get(0);
    }

    /** Whether microblocks were logged after the last block (their transactions are not settled yet). */
    public boolean microblocksSinceLastBlock() {
        List<String> rows = PlainJdbc.query(dataSource, "last block change", LAST_IS_MICROBLOCK, ps -> { },
                rs -> rs.getString(1));
        return !rows.isEmpty() && rows.get(0).equals("microblock");
    }

    /** The height of each block, on any fork, that is stored. */
    public Map<String, Long> heights(Collection<String> indexBlockHashes) {
        Map<String, Long> heights = new HashMap<>();
        for (List<String> chunk : chunks(indexBlockHashes)) {
            PlainJdbc.queryByIds(dataSource, HEIGHTS, chunk, (ps, next) -> { },
                    rs -> heights.put(rs.getString(1), rs.getLong(2)));
        }
        return heights;
    }

    /** What the transactions {@code txIds} reached, as far as {@code wanted} asks. */
    public Reached reached(Collection<String> txIds, Wanted wanted) {
        Set<String> principals = new HashSet<>();
        Set<String> pending = new HashSet<>();
        Set<String> contracts = new HashSet<>();
        Set<String> logging = new HashSet<>();
        boolean[] undecodable = {false};
        for (List<String> chunk : chunks(txIds)) {
            if (wanted.principals() || wanted.contracts()) {
                PlainJdbc.queryByIds(dataSource, MINED, chunk, (ps, next) -> { }, rs -> {
                    if ("smart_contract".equals(rs.getString(1)) && rs.getString(2) != null) {
                        contracts.add(rs.getString(2));
                    }
                    if (rs.getString(3) != null) {
                        principals.add(rs.getString(3));
                    }
                    return null;
                });
            }
            if (wanted.logs()) {
                PlainJdbc.queryByIds(dataSource, LOGGING, chunk, (ps, next) -> { },
                        rs -> logging.add(rs.getString(1)));
            }
            if (wanted.pending() || wanted.contracts()) {
                PlainJdbc.queryByIds(dataSource, POOLED, chunk, (ps, next) -> { }, rs -> {
                    String type = rs.getString(1);
                    pending.add(rs.getString(2));
                    if (rs.getString(3) != null) {
                        pending.add(rs.getString(3));
                    }
                    if (rs.getString(4) != null) {
                        pending.add(rs.getString(4));
                        if ("smart_contract".equals(type)) {
                            contracts.add(rs.getString(4));
                        }
                    }
                    if ("token_transfer".equals(type)) {
                        String recipient = recipient(rs.getString(5));
                        if (recipient != null) {
                            pending.add(recipient);
                        } else {
                            undecodable[0] = true;
                        }
                    }
                    return null;
                });
            }
        }
        return new Reached(principals, pending, contracts, logging, undecodable[0]);
    }

    /** A token transfer's recipient, or null when the raw transaction does not decode. */
    static String recipient(String rawTx) {
        try {
            return StacksTransaction.decodeHex(rawTx).payload() instanceof TransactionPayload.TokenTransfer transfer
                    ? transfer.recipientAddress() : null;
        } catch (CodecException | IllegalArgumentException e) {
            return null;
        }
    }

    private static List<List<String>> chunks(Collection<String> ids) {
        List<String> all = List.copyOf(ids);
        List<List<String>> chunks = new ArrayList<>();
        for (int from = 0; from < all.size(); from += REACH_CHUNK) {
            chunks.add(all.subList(from, Math.min(all.size(), from + REACH_CHUNK)));
        }
        return chunks;
    }
}
