package io.stacksexplorer.write;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

/**
 * One database transaction of the write path: its statement queue ({@link StatementQueue}) and
 * what it knows and changes beyond the rows, each kept by the step that owns it: the tip, the
 * position counters ({@link Positions}), the PoX unlock heights, the mempool
 * ({@link MempoolState}), what was announced in advance ({@link Announcements}), the change log
 * ({@link ChangeLog}). {@link #finish} writes what is still queued; {@link #afterCommit} makes
 * what it wrote the cached committed state ({@link CommittedCounters}, {@link PendingMempool}).
 */
final class Statements extends StatementQueue {

    private final CommittedCounters committedCounters;
    /** The keys this process wrote: look-ups of keys never written skip the database ({@link WrittenKeys}). */
    private final WrittenKeys writtenKeys;
    private final MempoolState mempool;
    private final Announcements announcements = new Announcements(this);
    private final ChangeLog changeLog = new ChangeLog();
    private Positions positions;

    Statements(Connection connection, CommittedCounters committedCounters) throws SQLException {
        this(connection, committedCounters, new PendingMempool(), new WrittenKeys());
    }

    Statements(Connection connection, CommittedCounters committedCounters, PendingMempool pendingMempool,
               WrittenKeys writtenKeys) throws SQLException {
        super(connection);
        this.committedCounters = committedCounters;
        this.writtenKeys = writtenKeys;
        this.mempool = new MempoolState(this, pendingMempool);
        // Known from the last committed transaction (one writer: nothing else changes them).
        this.noDeferredPayloads = committedCounters.noDeferredPayloads();
        this.noServedUnanchored = committedCounters.noServedUnanchored();
        this.pox = committedCounters.pox();
    }

    /**
     * For the rest of this transaction, each queued statement goes in a round trip of its own when
     * it is due (a table's rows by COPY on PostgreSQL), and {@link #finish} leaves the commit to the
     * caller, as with {@code -Dstacks.write.atOnce=false}. For a transaction of many payloads (the
     * derivation after the answer): which statements its queue holds, and in what order, changes
     * from one transaction to the next, so the text sent at once ({@link QueueAtOnce#sendAndCommit})
     * seldom repeats and each is parsed, analysed and planned anew; statement by statement, every
     * text repeats, is prepared on the server and keeps its plan. A few round trips more per
     * transaction of many payloads cost less than that (docs/performance.md, "Through the event
     * observer"). The rows queued so far stay queued (COPY rows or JDBC batches hold them too).
     */
    void sendStatementByStatement() {
        stopSendingAtOnce();
        presumeNewPayloads = false;
    }

    /** The mempool as this transaction sees and changes it. */
    MempoolState mempool() {
        return mempool;
    }

    /** What this transaction was told it is about to write. */
    Announcements announcements() {
        return announcements;
    }

    /** What this transaction changed, for subscriptions: appended to {@code change_log} by {@link #finish}. */
    ChangeLog changeLog() {
        return changeLog;
    }

    /**
     * Whether a payload not announced by {@link Announcements#expectPayloads} is presumed new: its row is queued
     * as a plain insert and goes with the transaction's last statements, instead of an
     * insert-if-new that costs a round trip of its own before anything is derived. A payload stored
     * before then breaks the unique payload hash and the whole transaction rolls back
     * ({@link #isPayloadStoredBefore}); ChainWriter runs it again the checked way. Only where the
     * queue goes at once (PostgreSQL), since only there the check costs a round trip.
     */
    private boolean presumeNewPayloads;

    void presumeNewPayloads(boolean presume) {
        presumeNewPayloads = presume && sendsAtOnce();
    }

    boolean presumesNewPayloads() {
        return presumeNewPayloads;
    }

    /** Whether {@code e} is the unique payload hash refusing a payload stored before ({@link #presumeNewPayloads}). */
    static boolean isPayloadStoredBefore(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && "23505".equals(sql.getSQLState()) && sql.getMessage() != null
                    && sql.getMessage().contains(PAYLOAD_HASH_INDEX)) {
                return true;
            }
        }
        return false;
    }

    /** The unique index on node_events.payload_hash (V8). */
    private static final String PAYLOAD_HASH_INDEX = "node_events_hash_idx";

    /** Runs once the transaction committed: the counters it wrote become the cached committed ones. */
    void afterCommit() {
        if (positions != null) {
            committedCounters.commit(positions.finalCounters());
        }
        mempool.afterCommit();
        if (tip != null) {
            committedCounters.commitTip(tip);
        }
        committedCounters.commitLookups(noDeferredPayloads, noServedUnanchored);
        committedCounters.commitPox(pox);
    }

    /** The PoX unlock heights chain_state holds as known to this transaction (null where not known). */
    private PoxUnlockHeights pox;

    /**
     * Sets the PoX unlock heights a block reported (a null height leaves the stored one), unless
     * chain_state holds each reported one already, as this writer last set it.
     */
    void setPoxUnlockHeights(PoxUnlockHeights reported) throws SQLException {
        if (holds(pox.v1(), reported.v1()) && holds(pox.v2(), reported.v2()) && holds(pox.v3(), reported.v3())) {
            return;
        }
        addBatch(WriteSql.SET_POX_UNLOCK_HEIGHTS, reported.v1(), reported.v2(), reported.v3());
        pox = new PoxUnlockHeights(reported.v1() != null ? reported.v1() : pox.v1(),
                reported.v2() != null ? reported.v2() : pox.v2(), reported.v3() != null ? reported.v3() : pox.v3());
    }

    private static boolean holds(Long stored, Long reported) {
        return reported == null || reported.equals(stored);
    }

    /** The position numbering of this database transaction (its counters are written by {@link #finish}). */
    Positions positions() {
        if (positions == null) {
            positions = new Positions(this, committedCounters);
        }
        return positions;
    }

    /** The chain tip as {@code chain_state} holds it (height null before the first block). */
    record Tip(Long height, String indexBlockHash) {
    }

    private Tip tip;

    /**
     * The chain tip, read once per database transaction (only this transaction's writes move it),
     * and not at all when the last committed transaction left it known ({@link CommittedCounters#tip}).
     */
    Tip tip() throws SQLException {
        if (tip == null) {
            tip = committedCounters.tip();
        }
        if (tip == null) {
            tip = query(WriteSql.TIP, rs -> new Tip((Long) rs.getObject(1, Long.class), rs.getString(2))).get(0);
        }
        return tip;
    }

    /** Records a new tip written to {@code chain_state} by this transaction. */
    void tipMovedTo(long height, String indexBlockHash) {
        tip = new Tip(height, indexBlockHash);
    }

    /**
     * True once this transaction knows that no served unanchored rows exist (it looked, or settled
     * all it found, and wrote none since), or the last committed one did ({@link CommittedCounters}):
     * anchor blocks then skip the look-up, which would send the transactions queued so far before
     * every block.
     */
    private boolean noServedUnanchored;

    boolean noServedUnanchored() {
        return noServedUnanchored;
    }

    void servedUnanchored(boolean any) {
        noServedUnanchored = !any;
    }

    /** Inserts the queued payloads now (before reading node_events; ids follow arrival order). */
    void flushPayloads() throws SQLException {
        executeBatch(WriteSql.INSERT_NODE_EVENT);
    }

    /**
     * Writes what is still queued: batched rows and the counters. The last call of a transaction:
     * on PostgreSQL, when the queue goes at once ({@link QueueAtOnce#sendAndCommit}), its last part
     * is the COMMIT, so that the writes and the commit cost one round trip; else the caller commits.
     */
    void finish() throws SQLException {
        mempool.flushUnwritten();
        if (positions != null) {
            // Microblocks leave their lists dirty (Microblocks#write): renumbered here at the latest.
            positions.renumber();
            positions.storeCounters();
        }
        mempool.finish();
        changeLog.append(this);
        if (canSendQueueAtOnce()) {
            sendQueueAndCommit();
        } else {
            executeAllBatches();
        }
    }

    /**
     * Whether no payload waits for its parent block: known for the rest of this transaction once
     * read, and from the last committed transaction's ({@link CommittedCounters}).
     */
    private Boolean noDeferredPayloads;

    /**
     * True when no stored payload waits for its parent block. Queued payloads never wait (a payload
     * is marked waiting by a statement that sends the queue first), so the queue is not sent.
     */
    boolean noDeferredPayloads() throws SQLException {
        if (noDeferredPayloads == null) {
            noDeferredPayloads = queryPastTheQueue(WriteSql.ANY_DEFERRED, rs -> Boolean.TRUE).isEmpty();
        }
        return noDeferredPayloads;
    }

    /** A payload's waiting mark changed: read again when next asked. */
    void deferredPayloadsChanged() {
        noDeferredPayloads = null;
    }

    /** Keys of rows {@code inserter}, declared with {@link WrittenKeys#ADDED_BY_CALLER}, inserts (bound as an array). */
    void writingKeys(WriteStatement inserter, Collection<String> keys) {
        writtenKeys.add(inserter, keys);
    }

    /** Of {@code keys}, those the tables of {@code kind} may hold ({@link WrittenKeys#mayBeStored}). */
    List<String> mayBeStored(WrittenKeys.Kind kind, Collection<String> keys) throws SQLException {
        return writtenKeys.mayBeStored(kind, keys, this);
    }

    @Override
    void beforeStatement(WriteStatement sql, Object[] params) {
        if (sql.writes().isEmpty()) {
            return;
        }
        writtenKeys.noteWrite(sql, params);
        announcements.beforeWrite(sql);
    }

    @Override
    void sent(WriteStatement sql) {
        announcements.sent(sql);
    }
}
