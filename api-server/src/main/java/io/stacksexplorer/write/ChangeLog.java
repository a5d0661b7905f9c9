package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static io.stacksexplorer.write.Table.CHANGE_LOG;
import static io.stacksexplorer.write.Table.CHANGE_LOG_HEAD;
import static io.stacksexplorer.write.Table.TXS;
import static io.stacksexplorer.write.WriteStatement.reading;
import static io.stacksexplorer.write.WriteStatement.writing;

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
    /**
     * Every derived row was written again (a rebuild): a follower that keeps what it derived from the
     * rows (the answer cache) starts over; subscriptions, which know no such kind, skip it.
     */
    static final String KIND_REBUILD = "rebuild";

    /** Takes {@code ?} positions; the row lock it takes orders the commits of concurrent writers. */
    private static final WriteStatement ADVANCE_HEAD = writing(CHANGE_LOG_HEAD).sql(
            "UPDATE change_log_head SET position = position + ? WHERE id = 1");
    private static final WriteStatement HEAD = reading(CHANGE_LOG_HEAD).sql(
            "SELECT position FROM change_log_head WHERE id = 1");
    private static final WriteStatement INSERT = writing(CHANGE_LOG).sql(
            "INSERT INTO change_log (position, kind, index_block_hash, tx_id, recorded_at,"
            + " microblock_hash, microblock_sequence, microblock_parent_hash, parent_burn_block_hash,"
            + " parent_burn_block_height, parent_burn_block_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    /**
     * PostgreSQL: the head advanced by {@code ?} positions and the rows at them, in one round trip
     * instead of three. Takes the count (twice), the time and the arrays of kinds, blocks and
     * transaction ids in order: row n (from 1) gets position head - count + n. Not for microblock
     * changes, whose header columns it does not carry ({@link #append}).
     */
    private static final WriteStatement APPEND_POSTGRESQL = writing(CHANGE_LOG_HEAD, CHANGE_LOG).sql("""
            WITH head AS (UPDATE change_log_head SET position = position + ? WHERE id = 1 RETURNING position)
            INSERT INTO change_log (position, kind, index_block_hash, tx_id, recorded_at)
            SELECT head.position - ? + c.n, c.kind, c.block, c.tx, ?
            FROM head, UNNEST(?::varchar[], ?::varchar[], ?::varchar[]) WITH ORDINALITY AS c (kind, block, tx, n)""");
    /** The oldest rows, to find how far a prune may go (the primary key's order: no index needed). */
    private static final WriteStatement OLDEST = reading(CHANGE_LOG).sql(
            "SELECT position, recorded_at FROM change_log ORDER BY position LIMIT ?");
    private static final WriteStatement DELETE_THROUGH = writing(CHANGE_LOG).sql(
            "DELETE FROM change_log WHERE position <= ?");
    /** The transactions of one block in chain order. */
    private static final WriteStatement TXS_OF_BLOCK = reading(TXS).sql(
            "SELECT tx_id FROM txs WHERE index_block_hash = ? ORDER BY microblock_sequence, tx_index");

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

    /** Empty; one per database transaction ({@link Statements#changeLog}). */
    ChangeLog() {
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

    /**
     * Marks, in the transaction of {@code sql}, that the derived tables were emptied and derived again
     * ({@link #KIND_REBUILD}): the answer cache on every server that follows the log drops all it kept.
     */
    static Void rebuilt(Statements sql) {
        sql.changeLog().changes.add(new Change(KIND_REBUILD, null, null));
        return null;
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

    /**
     * Appends the changes, in the order they were added, at the next positions: once per database
     * transaction, by {@link Statements#finish} (a replay's transaction holds many blocks). On
     * PostgreSQL one statement takes the positions and inserts the rows, unless a microblock is among
     * them (2.x chains only); otherwise the head is advanced, read back, and the rows are batched.
     */
    void append(Statements sql) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        long now = System.currentTimeMillis();
        int count = changes.size();
        if (sql.isPostgres() && changes.stream().noneMatch(change -> change.microblock() != null)) {
            String[] kinds = new String[count];
            String[] blocks = new String[count];
            String[] txIds = new String[count];
            for (int i = 0; i < count; i++) {
                Change change = changes.get(i);
                kinds[i] = change.kind();
                blocks[i] = change.indexBlockHash();
                txIds[i] = change.txId();
            }
            sql.addBatch(APPEND_POSTGRESQL, count, count, now, sql.array("varchar", kinds),
                    sql.array("varchar", blocks), sql.array("varchar", txIds));
            sql.countRows(count - 1);
            changes.clear();
            return;
        }
        sql.update(ADVANCE_HEAD, count);
        long position = sql.query(HEAD, rs -> rs.getLong(1)).get(0) - count;
        for (Change change : changes) {
            MicroblockHeader m = change.microblock();
            sql.addBatch(INSERT, ++position, change.kind(), change.indexBlockHash(), change.txId(), now,
                    m == null ? null : m.hash(), m == null ? null : m.sequence(), m == null ? null : m.parentHash(),
                    m == null ? null : m.parentBurnBlockHash(), m == null ? null : m.parentBurnBlockHeight(),
                    m == null ? null : m.parentBurnBlockTime());
        }
        changes.clear();
    }

    // --- what each write adds (the writer skips them while a rebuild re-derives) ---------------

    /**
     * A block that became the tip: the transactions the fork switch took off the chain (each has a
     * new state), the restored blocks oldest first, then the block and its transactions. A block
     * stored beside the chain changes nothing that is served and is not logged.
     */
    static void blockWritten(Statements sql, NewBlock block, BlockWriteResult result) throws SQLException {
        if (result.alreadyStored() || result.waitingForParent()
                || !block.indexBlockHash().equals(sql.tip().indexBlockHash())) {
            return;
        }
        ChangeLog log = sql.changeLog();
        for (String orphaned : result.orphaned()) {
            log.txsLeaving(sql, orphaned);
        }
        for (int i = result.restored().size() - 1; i >= 0; i--) {
            log.blockWithTxs(sql, result.restored().get(i));
        }
        // This block's transactions as delivered: no query, so a replay's rows stay queued.
        log.block(block.indexBlockHash());
        for (NewTransaction tx : block.transactions()) {
            log.tx(tx.txId(), block.indexBlockHash());
        }
    }

    /** Delivered mempool transactions; ones that were not added (known, mined) are skipped when served. */
    static void mempoolAdded(Statements sql, List<NewMempoolTransaction> txs) {
        sql.changeLog().mempool(txs.stream().map(tx -> tx.txId() != null ? tx.txId()
                : io.stacksexplorer.codec.Sha512_256.txId(io.stacksexplorer.codec.Hex.decode(tx.rawTx()))).toList());
    }

    /**
     * Transactions whose mempool state the write just changed on its own account (replaced by fee,
     * garbage-collected, pending again with what replaced them: MempoolState#changedHere), each with
     * its new state, after the write's own entries:
     * logged where they happened, so that a batch of many payloads logs in the same order as one
     * transaction per payload.
     */
    static void changedHere(Statements sql) {
        List<String> changed = sql.mempool().changedHere();
        for (String txId : changed) {
            sql.changeLog().tx(txId, null);
        }
        changed.clear();
    }

    /** Transactions the node dropped from its mempool: each has a new state. */
    static void dropped(Statements sql, Collection<String> txIds) {
        ChangeLog log = sql.changeLog();
        for (String txId : txIds) {
            log.tx(txId, null);
        }
    }
}
