package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Appends what a write changed to {@code change_log} (migration V200), inside the write's own
 * database transaction, so that a change and its log row become visible together. Subscriptions
 * (package {@code subscribe}) read the log by position on every server, including a readonly one on
 * a streaming standby, where PostgreSQL's NOTIFY never arrives. Kept apart from the write path's
 * other SQL ({@link WriteSql}) because nothing else reads or writes these two tables.
 */
final class ChangeLog {

    static final String KIND_BLOCK = "block";
    static final String KIND_MEMPOOL = "mempool";
    static final String KIND_TX = "tx";
    static final String KIND_MICROBLOCK = "microblock";

    /** Takes {@code ?} positions; the row lock it takes orders the commits of concurrent writers. */
    private static final String ADVANCE_HEAD = "UPDATE change_log_head SET position = position + ? WHERE id = 1";
    private static final String HEAD = "SELECT position FROM change_log_head WHERE id = 1";
    private static final String INSERT = "INSERT INTO change_log (position, kind, index_block_hash, tx_id, recorded_at,"
            + " microblock_hash, microblock_sequence, microblock_parent_hash, parent_burn_block_hash,"
            + " parent_burn_block_height, parent_burn_block_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    /** The oldest rows, to find how far a prune may go (the primary key's order: no index needed). */
    private static final String OLDEST = "SELECT position, recorded_at FROM change_log ORDER BY position LIMIT ?";
    private static final String DELETE_THROUGH = "DELETE FROM change_log WHERE position <= ?";
    /** The transactions of one block in chain order. */
    private static final String TXS_OF_BLOCK = "SELECT tx_id FROM txs WHERE index_block_hash = ?"
            + " ORDER BY microblock_sequence, tx_index";

    /**
     * One change: {@code kind} with the block or transaction it concerns; a microblock's header
     * facts in {@code microblock} (its {@code indexBlockHash} is the anchored block it builds on).
     */
    record Change(String kind, String indexBlockHash, String txId, MicroblockHeader microblock) {

        Change(String kind, String indexBlockHash, String txId) {
            this(kind, indexBlockHash, txId, null);
        }
    }

    /** What the node said of a microblock (the burn block fields null when it did not say). */
    record MicroblockHeader(String hash, int sequence, String parentHash, String parentBurnBlockHash,
                            Long parentBurnBlockHeight, Long parentBurnBlockTime) {
    }

    private final List<Change> changes = new ArrayList<>();

    private ChangeLog() {
    }

    static ChangeLog of() {
        return new ChangeLog();
    }

    ChangeLog block(String indexBlockHash) {
        changes.add(new Change(KIND_BLOCK, indexBlockHash, null));
        return this;
    }

    ChangeLog tx(String txId, String indexBlockHash) {
        changes.add(new Change(KIND_TX, indexBlockHash, txId));
        return this;
    }

    ChangeLog mempool(Collection<String> txIds) {
        for (String txId : txIds) {
            changes.add(new Change(KIND_MEMPOOL, null, txId));
        }
        return this;
    }

    /** A microblock stored for the first time on top of the anchored block {@code parentIndexBlockHash}. */
    ChangeLog microblock(String parentIndexBlockHash, MicroblockHeader header) {
        changes.add(new Change(KIND_MICROBLOCK, parentIndexBlockHash, null, header));
        return this;
    }

    /** A block that joined the canonical chain (new or restored), then each of its transactions. */
    ChangeLog blockWithTxs(Statements sql, String indexBlockHash) throws SQLException {
        block(indexBlockHash);
        for (String txId : sql.query(TXS_OF_BLOCK, rs -> rs.getString(1), indexBlockHash)) {
            tx(txId, indexBlockHash);
        }
        return this;
    }

    /** The transactions of a block that left the canonical chain: each has a new state. */
    ChangeLog txsLeaving(Statements sql, String indexBlockHash) throws SQLException {
        for (String txId : sql.query(TXS_OF_BLOCK, rs -> rs.getString(1), indexBlockHash)) {
            tx(txId, null);
        }
        return this;
    }

    /**
     * Deletes the oldest rows recorded before {@code recordedBefore} (Unix milliseconds), at most
     * {@code batch} of them, never the last one: the log keeps its head, so the oldest position it
     * has is always known (positions have no holes: a resume from before it is refused, not cut
     * short; see subscribe.ChangeFeed).
     *
     * @return the number of rows deleted
     */
    static int prune(Statements sql, long recordedBefore, int batch) throws SQLException {
        long head = sql.query(HEAD, rs -> rs.getLong(1)).get(0);
        long through = -1;
        for (long[] row : sql.query(OLDEST, rs -> new long[]{rs.getLong(1), rs.getLong(2)}, batch)) {
            if (row[1] >= recordedBefore || row[0] >= head) {
                break;
            }
            through = row[0];
        }
        return through < 0 ? 0 : sql.update(DELETE_THROUGH, through);
    }

    /** Appends the changes, in the order they were added, at the next positions. */
    void append(Statements sql) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        sql.update(ADVANCE_HEAD, changes.size());
        long last = sql.query(HEAD, rs -> rs.getLong(1)).get(0);
        long position = last - changes.size();
        long now = System.currentTimeMillis();
        for (Change change : changes) {
            MicroblockHeader m = change.microblock();
            sql.addBatch(INSERT, ++position, change.kind(), change.indexBlockHash(), change.txId(), now,
                    m == null ? null : m.hash(), m == null ? null : m.sequence(), m == null ? null : m.parentHash(),
                    m == null ? null : m.parentBurnBlockHash(), m == null ? null : m.parentBurnBlockHeight(),
                    m == null ? null : m.parentBurnBlockTime());
        }
        changes.clear();
    }
}
