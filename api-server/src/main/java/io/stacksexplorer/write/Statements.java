package io.stacksexplorer.write;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Thin JDBC plumbing for the write path on the connection of the current database transaction:
 * prepared statements are cached per SQL text for the life of one transaction and rows are
 * batched, which is what makes replay fast.
 *
 * <p>Batched rows stay queued until a statement needs them: a statement first sends the rows
 * queued by statements whose declared tables conflict with its own ({@link WriteStatement#mustPrecede}:
 * one writes a table the other reads or writes), in the order they were queued ({@link #flushFor}),
 * and {@link #finish} sends the rest. So the rows of many blocks travel in one COPY per table
 * instead of one per block, and every read still sees every write made before it.
 */
final class Statements implements AutoCloseable {

    /** Maps one result row. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final Connection connection;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();
    /** Statements with queued rows, in the order their first row was queued. */
    private final Map<WriteStatement, Integer> pendingBatches = new LinkedHashMap<>();
    /**
     * PostgreSQL: the rows of each plain INSERT, queued for a binary COPY instead of bound
     * parameters ({@link CopyRows}); {@link #NOT_COPIED} for statements that stay INSERTs. Null on H2.
     */
    private final Map<WriteStatement, CopyRows> copies;
    private final boolean postgres;
    private static final CopyRows NOT_COPIED = new CopyRows(new CopyRows.Target("none", List.of("x")), List.of("text"));
    /**
     * PostgreSQL: the values of each queued statement's rows, kept while a statement has queued at
     * most {@value #AT_ONCE_ROWS} of them, so that {@link #finish} can send the whole queue and the
     * commit as one multi-statement in one round trip ({@link #sendQueueAndCommit}); {@link #TOO_MANY_ROWS}
     * once a statement queued more (a replay's batches, which COPY serves better). Null on H2, whose
     * statements cost no round trip.
     */
    private Map<WriteStatement, List<Object[]>> queuedValues;
    private static final List<Object[]> TOO_MANY_ROWS = List.of();
    /**
     * Rows per statement up to which the queue goes at once: a block of today's chain queues a few
     * to a few dozen rows per table (1.2 to 10 transactions per Nakamoto block); a replay's batch
     * of hundreds of blocks queues thousands, and goes by COPY.
     */
    static final int AT_ONCE_ROWS = 256;
    /** Bound values up to which the queue goes at once (pgjdbc binds at most 65,535 per statement). */
    private static final int AT_ONCE_VALUES = 30_000;

    /** Rows queued by {@link #addBatch} in this transaction (for {@link StatisticsSchedule}). */
    private long rowsWritten;

    private Positions positions;
    private final Map<String, Long> mempoolDeltas = new HashMap<>();
    private final UnwrittenMempool unwrittenMempool = new UnwrittenMempool();
    private boolean mempoolChanged;
    /** Payload hashes announced by {@link #expectPayloads}: those stored before, and those this transaction added. */
    private final Set<String> expectedPayloads = new HashSet<>();
    private final Set<String> storedPayloads = new HashSet<>();

    private final CommittedCounters committedCounters;
    private final PendingMempool pendingMempool;
    /** The keys this process wrote: look-ups of keys never written skip the database ({@link WrittenKeys}). */
    private final WrittenKeys writtenKeys;
    /** Pending states this transaction set, by transaction id (true: pending); for {@link #pendingMempool}. */
    private final Map<String, Long> pendingChanges = new HashMap<>();
    /** The nonces each row this transaction made pending spends; for {@link #pendingMempool}. */
    private final Map<String, List<NonceSlot>> pendingSlots = new HashMap<>();
    /** Transactions dropped as replaced by fee in this transaction, for the change log ({@link MempoolReplacement}). */
    private final List<String> replacedByFee = new ArrayList<>();

    Statements(Connection connection, CommittedCounters committedCounters) throws SQLException {
        this(connection, committedCounters, new PendingMempool(), new WrittenKeys());
    }

    Statements(Connection connection, CommittedCounters committedCounters, PendingMempool pendingMempool,
               WrittenKeys writtenKeys) throws SQLException {
        this.connection = connection;
        this.committedCounters = committedCounters;
        this.pendingMempool = pendingMempool;
        this.writtenKeys = writtenKeys;
        // Known from the last committed transaction (one writer: nothing else changes them).
        this.noDeferredPayloads = committedCounters.noDeferredPayloads();
        this.noServedUnanchored = committedCounters.noServedUnanchored();
        this.pox = committedCounters.pox();
        this.postgres = "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
        // -Dstacks.write.copy=false: batched rows go as multi-row INSERTs on PostgreSQL too (for comparison).
        boolean copy = Boolean.parseBoolean(System.getProperty("stacks.write.copy", "true"));
        this.copies = postgres && copy ? new HashMap<>() : null;
        // -Dstacks.write.atOnce=false: every queued statement in a round trip of its own (for comparison).
        boolean atOnce = Boolean.parseBoolean(System.getProperty("stacks.write.atOnce", "true"));
        this.queuedValues = postgres && atOnce ? new HashMap<>() : null;
    }

    /**
     * For the rest of this transaction, each queued statement goes in a round trip of its own when
     * it is due (a table's rows by COPY on PostgreSQL), and {@link #finish} leaves the commit to the
     * caller, as with {@code -Dstacks.write.atOnce=false}. For a transaction of many payloads (the
     * derivation after the answer): which statements its queue holds, and in what order, changes
     * from one transaction to the next, so the text sent at once ({@link #sendQueueAndCommit})
     * seldom repeats and each is parsed, analysed and planned anew; statement by statement, every
     * text repeats, is prepared on the server and keeps its plan. A few round trips more per
     * transaction of many payloads cost less than that (docs/performance.md, "Through the event
     * observer"). The rows queued so far stay queued (COPY rows or JDBC batches hold them too).
     */
    void sendStatementByStatement() {
        queuedValues = null;
        presumeNewPayloads = false;
    }

    boolean isPostgres() {
        return postgres;
    }

    /**
     * Whether a payload not announced by {@link #expectPayloads} is presumed new: its row is queued
     * as a plain insert and goes with the transaction's last statements, instead of an
     * insert-if-new that costs a round trip of its own before anything is derived. A payload stored
     * before then breaks the unique payload hash and the whole transaction rolls back
     * ({@link #isPayloadStoredBefore}); ChainWriter runs it again the checked way. Only where the
     * queue goes at once (PostgreSQL), since only there the check costs a round trip.
     */
    private boolean presumeNewPayloads;

    void presumeNewPayloads(boolean presume) {
        presumeNewPayloads = presume && queuedValues != null;
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
        pendingMempool.commit(pendingChanges, pendingSlots);
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

    /**
     * Loads the committed pending mempool ids when they are not known yet. Call as the first
     * statement of the transaction, before it writes anything, so that only committed rows are read.
     */
    void loadPendingMempoolIfWanted() throws SQLException {
        if (pendingMempool.wantsLoad()) {
            Map<String, Long> committed = new HashMap<>();
            Map<String, List<NonceSlot>> slots = new HashMap<>();
            query(WriteSql.PENDING_MEMPOOL_IDS, rs -> {
                String txId = rs.getString(1);
                committed.put(txId, rs.getLong(2));
                long sponsorNonce = rs.getLong(6);
                slots.put(txId, NonceSlot.of(rs.getString(3), rs.getLong(4), rs.getString(5),
                        rs.wasNull() ? null : sponsorNonce));
                return txId;
            }, PendingMempool.MAX_PENDING + 1);
            pendingMempool.load(committed, slots);
        }
    }

    /** A written mempool row stopped being pending. */
    void noLongerPending(String txId) {
        pendingChanges.put(txId, PendingMempool.NOT_PENDING);
        pendingSlots.remove(txId);
    }

    /**
     * A written mempool row is pending, received (or returned by a reorg) at chain height
     * {@code receiptHeight}, spending {@code slots}.
     */
    void pendingSince(String txId, long receiptHeight, List<NonceSlot> slots) {
        pendingChanges.put(txId, receiptHeight);
        pendingSlots.put(txId, slots);
    }

    /**
     * The written rows pending now that spend one of {@code slots} (not the held-back ones of
     * {@link UnwrittenMempool}): from memory when the committed pending set is known, plus this
     * transaction's changes; else asked, one query per slot.
     */
    Set<String> pendingSpending(Collection<NonceSlot> slots) throws SQLException {
        Set<String> found = new HashSet<>();
        if (!pendingMempool.known()) {
            for (NonceSlot slot : slots) {
                found.addAll(query(MempoolReplacement.PENDING_SPENDING, rs -> rs.getString(1),
                        slot.address(), slot.nonce(), slot.address(), slot.nonce()));
            }
            return found;
        }
        for (NonceSlot slot : slots) {
            for (String txId : pendingMempool.pendingIn(slot)) {
                if (!pendingChanges.containsKey(txId)) {
                    found.add(txId);
                }
            }
        }
        for (Map.Entry<String, List<NonceSlot>> changed : pendingSlots.entrySet()) {
            if (!java.util.Collections.disjoint(changed.getValue(), slots)) {
                found.add(changed.getKey());
            }
        }
        return found;
    }

    /** Transactions this database transaction dropped as replaced by fee, in order. */
    List<String> replacedByFee() {
        return replacedByFee;
    }

    /**
     * The written rows pending since at most {@code height} (garbage-collection candidates): from
     * memory when the committed pending set is known, plus this transaction's changes; else asked.
     */
    List<String> pendingSinceAtMost(long height) throws SQLException {
        if (!pendingMempool.known()) {
            return query(WriteSql.STALE_PENDING, rs -> rs.getString(1), height);
        }
        List<String> stale = new ArrayList<>();
        if (pendingMempool.oldestReceiptHeight() <= height) {
            for (String txId : pendingMempool.pendingSinceAtMost(height)) {
                if (!pendingChanges.containsKey(txId)) {
                    stale.add(txId);
                }
            }
        }
        for (Map.Entry<String, Long> change : pendingChanges.entrySet()) {
            if (change.getValue() != PendingMempool.NOT_PENDING && change.getValue() <= height) {
                stale.add(change.getKey());
            }
        }
        return stale;
    }

    /**
     * Of {@code txIds}, those pending in the mempool's written rows (not the held-back ones of
     * {@link UnwrittenMempool}): from memory when the committed pending ids are known
     * ({@link PendingMempool}) plus this transaction's changes, else one query per {@value #CHUNK} ids.
     */
    Set<String> pendingAmong(Collection<String> txIds) throws SQLException {
        if (!pendingMempool.known()) {
            return new HashSet<>(queryIn(WriteSql.PENDING_AMONG_IN_CHUNK, txIds, rs -> rs.getString(1)));
        }
        Set<String> pending = new HashSet<>();
        for (String txId : txIds) {
            Long changed = pendingChanges.get(txId);
            if (changed != null ? changed != PendingMempool.NOT_PENDING : pendingMempool.isPending(txId)) {
                pending.add(txId);
            }
        }
        return pending;
    }

    /** The position numbering of this database transaction (its counters are written by {@link #finish}). */
    Positions positions() {
        if (positions == null) {
            positions = new Positions(this, committedCounters);
        }
        return positions;
    }

    private final ChangeLog changeLog = new ChangeLog();

    /** What this transaction changed, for subscriptions: appended to {@code change_log} by {@link #finish}. */
    ChangeLog changeLog() {
        return changeLog;
    }

    /** Mempool transactions added in this transaction and not written yet (written by {@link #finish}). */
    UnwrittenMempool unwrittenMempool() {
        return unwrittenMempool;
    }

    /** Pending-count deltas per principal, applied once by {@link #finish}. */
    void addMempoolDelta(String principal, long delta) {
        mempoolDeltas.merge(principal, delta, Long::sum);
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

    /** The served mempool changed: its version (for conditional requests) is bumped once, by {@link #finish}. */
    void mempoolChanged() {
        mempoolChanged = true;
    }

    /**
     * Learns in one query which of the payloads this transaction is about to store are stored
     * already; storing each of them is then a batched insert ({@link #storeNewPayload}) instead of a
     * round trip.
     */
    void expectPayloads(Collection<String> hashes) throws SQLException {
        List<String> unknown = new ArrayList<>();
        for (String hash : hashes) {
            if (expectedPayloads.add(hash)) {
                unknown.add(hash);
            }
        }
        storedPayloads.addAll(queryIn(WriteSql.NODE_EVENTS_STORED_IN_CHUNK,
                writtenKeys.mayBeStored(WrittenKeys.Kind.PAYLOAD_HASHES, unknown, this), rs -> rs.getString(1)));
    }

    /**
     * Queues a payload announced by {@link #expectPayloads} for insertion unless it is stored already
     * (or earlier in this transaction); null when it was not announced (the caller checks itself).
     */
    Boolean storeNewPayload(RawPayload raw) throws SQLException {
        String hash = raw.payloadHash();
        if (!expectedPayloads.contains(hash)) {
            return null;
        }
        if (!storedPayloads.add(hash)) {
            return false;
        }
        addBatch(WriteSql.INSERT_NODE_EVENT, raw.receivedAt(), raw.path(), hash, raw.body());
        return true;
    }

    /**
     * Blocks announced by {@link #expectBlocks} that are not stored: {@link ChainRows#findBlock}
     * answers for them without a query. A block leaves the set when this transaction writes it
     * ({@link #blockWritten}); nothing else inserts blocks (one writer), so the set stays true.
     */
    private final Set<String> absentBlocks = new HashSet<>();

    /**
     * Learns in one query per {@value #CHUNK} hashes which of the blocks this transaction is about
     * to write are stored already: one round trip for a replay's batch instead of one per block.
     */
    void expectBlocks(Collection<String> indexBlockHashes) throws SQLException {
        Set<String> unknown = new HashSet<>(indexBlockHashes);
        unknown.removeAll(absentBlocks);
        if (unknown.isEmpty()) {
            return;
        }
        List<String> stored = queryIn(WriteSql.BLOCKS_STORED_IN_CHUNK,
                writtenKeys.mayBeStored(WrittenKeys.Kind.BLOCKS, unknown, this), rs -> rs.getString(1));
        unknown.removeAll(stored);
        absentBlocks.addAll(unknown);
    }

    /** True when {@code indexBlockHash} is known not to be stored (announced, not written since). */
    boolean knownAbsentBlock(String indexBlockHash) {
        return absentBlocks.contains(indexBlockHash);
    }

    /** This transaction wrote (queued) the block: no longer absent. */
    void blockWritten(String indexBlockHash) {
        absentBlocks.remove(indexBlockHash);
    }

    /** Inserts the queued payloads now (before reading node_events; ids follow arrival order). */
    void flushPayloads() throws SQLException {
        executeBatch(WriteSql.INSERT_NODE_EVENT);
    }

    /**
     * Writes what is still queued: batched rows and the counters. The last call of a transaction:
     * on PostgreSQL, when the queue goes at once ({@link #sendQueueAndCommit}), its last part is the
     * COMMIT, so that the writes and the commit cost one round trip; else the caller commits.
     */
    void finish() throws SQLException {
        unwrittenMempool.flush(this);
        if (positions != null) {
            // Microblocks leave their lists dirty (Microblocks#write): renumbered here at the latest.
            positions.renumber();
            positions.storeCounters();
        }
        mempoolDeltas.values().removeIf(d -> d == 0);
        boolean bumped = Counters.addMempoolCounts(this, mempoolDeltas, mempoolChanged);
        mempoolDeltas.clear();
        if (mempoolChanged && !bumped) {
            addBatch(WriteSql.BUMP_MEMPOOL_VERSION);
        }
        mempoolChanged = false;
        changeLog.append(this);
        if (canSendQueueAtOnce()) {
            sendQueueAndCommit();
        } else {
            executeAllBatches();
        }
    }

    /** Keys per chunk of {@link #queryIn}. */
    static final int CHUNK = 64;

    /**
     * Runs {@code inChunk}, whose parameters are {@value #CHUNK} places for keys, for {@code keys},
     * a chunk per query (unused places bound to NULL, so one prepared statement serves every
     * chunk): a bulk existence check in a few round trips instead of one per key.
     */
    <T> List<T> queryIn(WriteStatement inChunk, Collection<String> keys, RowMapper<T> mapper) throws SQLException {
        return queryChunks(inChunk, CHUNK, keys, 1, true, mapper);
    }

    /**
     * Runs {@code sql}, whose parameters are {@code bindings} groups of {@value #CHUNK}
     * placeholders, once per chunk of {@code keys}, each group bound to the chunk (unused places to
     * NULL). With {@code flush}, the rows queued for its tables are sent first ({@link #query}).
     */
    private <T> List<T> queryChunks(WriteStatement sql, int chunk, Collection<String> keys, int bindings, boolean flush,
                                    RowMapper<T> mapper) throws SQLException {
        List<String> list = new ArrayList<>(keys);
        List<T> rows = new ArrayList<>();
        for (int from = 0; from < list.size(); from += chunk) {
            Object[] params = new Object[bindings * chunk];
            for (int i = 0; i < chunk && from + i < list.size(); i++) {
                for (int group = 0; group < bindings; group++) {
                    params[group * chunk + i] = list.get(from + i);
                }
            }
            rows.addAll(flush ? query(sql, mapper, params) : queryPastTheQueue(sql, mapper, params));
        }
        return rows;
    }

    /**
     * Canonical transactions queued for {@code txs} and not sent yet. Their flags cannot change
     * while they wait: every statement that flips flags names txs and so sends them first.
     */
    private final Set<String> queuedCanonicalTxs = new HashSet<>();

    /** A canonical, served transaction row was just queued ({@link WriteSql#INSERT_TX}). */
    void queuedCanonicalTx(String txId) {
        queuedCanonicalTxs.add(txId);
        canonicalTxsWritten.add(txId);
    }

    /** What the mempool check of new transactions learns ({@link #mempoolKnownOrMined}). */
    record MempoolKnowledge(Set<String> known, Set<String> mined) {
    }

    /**
     * Transaction ids announced by {@link #expectMempoolTransactions} before this transaction wrote
     * anything, with what the committed rows said of them then: held by {@code mempool_txs}
     * ({@link #announcedKnown}), mined on the canonical chain and served ({@link #announcedMined}).
     * Together with the canonical rows this transaction writes ({@link #canonicalTxsWritten}) that
     * answers {@link #mempoolKnownOrMined} for them without a query, for as long as nothing else
     * changes those answers: a statement that could (a reorg's or a microblock's flag flips, a
     * transaction returned to the mempool) forgets the announcement ({@link #noteWrite}), and the
     * database is asked again, as without one.
     */
    private final Set<String> announcedMempoolIds = new HashSet<>();
    private final Set<String> announcedKnown = new HashSet<>();
    private final Set<String> announcedMined = new HashSet<>();
    /** Every canonical, served transaction row this transaction wrote, sent or still queued. */
    private final Set<String> canonicalTxsWritten = new HashSet<>();
    /** Whether this transaction wrote (or queued) anything yet: announcements come before. */
    private boolean wroteAnything;

    /**
     * Statements on {@code txs} and {@code mempool_txs} that leave an announcement true: the
     * transaction inserts are followed through {@link #queuedCanonicalTx}, and the state updates
     * change neither which ids the mempool holds nor what is mined.
     */
    private static final Set<WriteStatement> KEEP_MEMPOOL_ANNOUNCEMENT =
            Set.of(WriteSql.INSERT_TX, WriteSql.SET_MEMPOOL_STATE, WriteSql.SET_MINED_POSTGRESQL);

    /** Called for every statement that writes, before it is queued or sent. */
    private void noteWrite(WriteStatement sql, Object[] params) {
        if (sql.writes().isEmpty()) {
            return;
        }
        wroteAnything = true;
        writtenKeys.noteWrite(sql, params);
        if (!announcedMempoolIds.isEmpty() && !KEEP_MEMPOOL_ANNOUNCEMENT.contains(sql)
                && (sql.writes().contains(Table.TXS) || sql.writes().contains(Table.MEMPOOL_TXS))) {
            announcedMempoolIds.clear();
            announcedKnown.clear();
            announcedMined.clear();
        }
    }

    /**
     * Learns in one query per {@value #CHUNK} ids what the committed rows say of the mempool
     * transactions this transaction is about to add ({@link #announcedMempoolIds}). Only before the
     * transaction writes: afterwards the rows it queued would be missing from the answer.
     */
    void expectMempoolTransactions(Collection<String> txIds) throws SQLException {
        if (wroteAnything) {
            return;
        }
        Set<String> unknown = new LinkedHashSet<>(txIds);
        unknown.removeAll(announcedMempoolIds);
        if (unknown.isEmpty()) {
            return;
        }
        MempoolKnowledge committed = askMempoolKnownOrMined(unknown);
        announcedMempoolIds.addAll(unknown);
        announcedKnown.addAll(committed.known());
        announcedMined.addAll(committed.mined());
    }

    /**
     * Of {@code txIds}: those {@code mempool_txs} holds already (pending or not), and those mined on
     * the canonical chain and served (the database's rows plus the queued ones). Ids announced by
     * {@link #expectMempoolTransactions} are answered from memory; the others cost one query per
     * {@value #CHUNK} ids for both questions (a replay without the announcement asked them for
     * every run of mempool deliveries between two blocks). Queued mempool inserts are sent first; queued transactions are
     * not, which would send the rows of every block in a COPY of their own: they are accounted for
     * here instead (their flags cannot change while they wait, since every statement that flips
     * flags names txs and so sends them first).
     */
    MempoolKnowledge mempoolKnownOrMined(Collection<String> txIds) throws SQLException {
        Set<String> known = new HashSet<>();
        Set<String> mined = new HashSet<>();
        List<String> asked = new ArrayList<>(txIds.size());
        for (String txId : txIds) {
            if (!announcedMempoolIds.contains(txId)) {
                asked.add(txId);
                continue;
            }
            if (announcedKnown.contains(txId)) {
                known.add(txId);
            }
            if (announcedMined.contains(txId) || canonicalTxsWritten.contains(txId)) {
                mined.add(txId);
            }
        }
        if (!asked.isEmpty()) {
            MempoolKnowledge fromDatabase = askMempoolKnownOrMined(asked);
            known.addAll(fromDatabase.known());
            mined.addAll(fromDatabase.mined());
        }
        return new MempoolKnowledge(known, mined);
    }

    private MempoolKnowledge askMempoolKnownOrMined(Collection<String> txIds) throws SQLException {
        Set<String> known = new HashSet<>();
        Set<String> mined = new HashSet<>();
        // Ids this process never wrote are in neither table: only the others are asked.
        List<String> asked = writtenKeys.mayBeStored(WrittenKeys.Kind.TX_IDS, txIds, this);
        if (!asked.isEmpty()) {
            // Only inserts change which ids the mempool holds: queued state changes (pruned, status)
            // stay queued instead of costing a round trip before every run of mempool deliveries.
            executeBatch(WriteSql.INSERT_MEMPOOL_TX_STATE);
            int places = asked.size() <= 1 ? 1 : Math.min(CHUNK, Integer.highestOneBit(asked.size() - 1) << 1);
            for (Object[] row : queryChunks(
                    WriteSql.MEMPOOL_KNOWN_OR_MINED_BY_LOG2_PLACES.get(Integer.numberOfTrailingZeros(places)), places,
                    asked, 2, false, rs -> new Object[]{rs.getString(1), rs.getInt(2)})) {
                ((Integer) row[1] == 1 ? mined : known).add((String) row[0]);
            }
        }
        for (String txId : txIds) {
            if (queuedCanonicalTxs.contains(txId)) {
                mined.add(txId);
            }
        }
        return new MempoolKnowledge(known, mined);
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

    /** A JDBC array of {@code values} for a parameter, e.g. of type "varchar" or "bigint". */
    java.sql.Array array(String type, Object[] values) throws SQLException {
        return connection.createArrayOf(type, values);
    }

    int update(WriteStatement sql, Object... params) throws SQLException {
        noteWrite(sql, params);
        flushFor(sql);
        PreparedStatement ps = prepare(sql);
        bind(ps, params);
        return ps.executeUpdate();
    }

    /**
     * As {@link #addBatch}, for an UPDATE of one row that sets every column it names from its
     * parameters: a row it queued before and has not sent is dropped, since this one overwrites it.
     * Re-queued last, after whatever was queued since. The tip ({@link WriteSql#SET_TIP}): a replay's
     * database transaction holds about two hundred blocks, and each used to leave its own UPDATE of
     * chain_state in the queue (97,131 of them in the 1,000,000-transaction mixed replay).
     */
    void addOverwritingBatch(WriteStatement sql, Object... params) throws SQLException {
        Integer dropped = pendingBatches.remove(sql);
        if (dropped != null) {
            prepare(sql).clearBatch();
            if (queuedValues != null) {
                queuedValues.remove(sql);
            }
            rowsWritten -= dropped;
        }
        addBatch(sql, params);
    }

    void addBatch(WriteStatement sql, Object... params) throws SQLException {
        noteWrite(sql, params);
        if (queuedValues != null) {
            List<Object[]> values = queuedValues.computeIfAbsent(sql, k -> new ArrayList<>());
            if (values != TOO_MANY_ROWS) {
                if (values.size() < AT_ONCE_ROWS) {
                    values.add(params);
                } else {
                    queuedValues.put(sql, TOO_MANY_ROWS);
                }
            }
        }
        CopyRows copy = copyOf(sql);
        if (copy != null) {
            copy.add(params);
            pendingBatches.merge(sql, 1, Integer::sum);
            rowsWritten++;
            return;
        }
        PreparedStatement ps = prepare(sql);
        bind(ps, params);
        ps.addBatch();
        pendingBatches.merge(sql, 1, Integer::sum);
        rowsWritten++;
    }

    /**
     * Rows written by one statement over arrays, counted as {@link #addBatch} counts its rows (the
     * ANALYZE schedule follows the count, StatisticsSchedule).
     */
    void countRows(long rows) {
        rowsWritten += rows;
    }

    /** Rows this transaction wrote in batches (inserts, and updates of single rows). */
    long rowsWritten() {
        return rowsWritten;
    }

    /**
     * Runs the queued rows of one statement, after the rows queued before them for the same table;
     * returns the update count per row.
     */
    int[] executeBatch(WriteStatement sql) throws SQLException {
        if (!pendingBatches.containsKey(sql)) {
            return new int[0];
        }
        flushQueuedBefore(sql);
        pendingBatches.remove(sql);
        if (queuedValues != null) {
            queuedValues.remove(sql);
        }
        if (WriteSql.INSERT_TX.equals(sql)) {
            queuedCanonicalTxs.clear();
        }
        CopyRows copy = copyOf(sql);
        if (copy != null) {
            return copy(copy);
        }
        return prepare(sql).executeBatch();
    }

    /** The COPY rows of {@code sql}, or null when its rows are bound to the INSERT (H2, or not a plain INSERT). */
    private CopyRows copyOf(WriteStatement sql) throws SQLException {
        if (copies == null) {
            return null;
        }
        CopyRows copy = copies.get(sql);
        if (copy == null) {
            copy = copyRows(connection, sql);
            copies.put(sql, copy == null ? NOT_COPIED : copy);
        }
        return copy == NOT_COPIED ? null : copy;
    }

    /**
     * Empty COPY rows for {@code insert} on {@code connection} (PostgreSQL), with its table's
     * column types, or null when it is not a plain INSERT ({@link CopyRows#target}).
     */
    static CopyRows copyRows(Connection connection, WriteStatement insert) throws SQLException {
        CopyRows.Target target = CopyRows.target(insert.sql());
        return target == null ? null : new CopyRows(target, columnTypes(connection, target));
    }

    /** Sends the queued rows in one COPY on this transaction's connection; one update count per row. */
    private int[] copy(CopyRows copy) throws SQLException {
        int rows = copy.rows();
        copyIn(connection, copy);
        int[] counts = new int[rows];
        Arrays.fill(counts, 1);
        return counts;
    }

    /** Sends {@code copy}'s rows in one COPY on {@code connection} (PostgreSQL), then clears them. */
    static void copyIn(Connection connection, CopyRows copy) throws SQLException {
        // Chunk by chunk into the stream (CopyRows#CHUNK_BYTES): no copy of the whole stream is made.
        CopyIn stream = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copy.copySql());
        try {
            for (byte[] chunk : copy.chunks()) {
                stream.writeToCopy(chunk, 0, chunk.length);
            }
            stream.endCopy();
        } catch (SQLException | RuntimeException e) {
            if (stream.isActive()) {
                // Failed mid-way: end the COPY, so that the connection is left in a usable state.
                try {
                    stream.cancelCopy();
                } catch (SQLException cancel) {
                    e.addSuppressed(cancel);
                }
            }
            throw e;
        } finally {
            copy.clear();
        }
    }

    void executeAllBatches() throws SQLException {
        for (WriteStatement sql : new ArrayList<>(pendingBatches.keySet())) {
            executeBatch(sql);
        }
    }

    /** Whether every queued statement still has its rows' values, and all of them fit one statement. */
    private boolean canSendQueueAtOnce() {
        if (queuedValues == null || pendingBatches.isEmpty()) {
            return false;
        }
        int values = 0;
        for (WriteStatement queued : pendingBatches.keySet()) {
            List<Object[]> rows = queuedValues.get(queued);
            if (rows == null || rows == TOO_MANY_ROWS) {
                return false;
            }
            for (Object[] row : rows) {
                values += row.length;
            }
        }
        return values <= AT_ONCE_VALUES;
    }

    /**
     * Sends every queued statement, in queue order, and then the transaction's COMMIT as one
     * multi-statement: pgjdbc sends its parts one after another and waits once (one Sync), so a
     * payload's writes and its commit cost one round trip instead of one per statement and two per
     * COPY. The rows of a plain INSERT become one INSERT over an array per column
     * ({@link CopyRows#arrayInsert}); any other statement is repeated per row (the write path passes
     * most of its rows as arrays itself and is queued once). The text therefore depends on which
     * statements are queued, not on how many rows: the few dozen texts a feed produces are each
     * prepared on the server once per connection (pgjdbc's prepareThreshold) and planned once. The
     * answer means committed, and the transaction manager's own commit finds nothing left to do
     * (pgjdbc sends COMMIT only inside an open transaction).
     *
     * <p>Why: a payload of today's chain took 6 (mempool) to 18 (block) round trips, each waiting for
     * the network between the writer and its database. On the loopback of the benchmark machine they
     * were not what bounded the observer (docs/performance.md, "One round trip per delivery": 4.2
     * times fewer, same wall time); across a network each costs its latency.
     */
    private void sendQueueAndCommit() throws SQLException {
        StringBuilder text = new StringBuilder(4096);
        List<Object> values = new ArrayList<>();
        for (WriteStatement queued : pendingBatches.keySet()) {
            List<Object[]> rows = queuedValues.get(queued);
            CopyRows copy = copyOf(queued);
            if (copy != null) {
                text.append(copy.arrayInsert()).append(";\n");
                for (int column = 0; column < copy.columnNames().size(); column++) {
                    String[] elements = new String[rows.size()];
                    for (int row = 0; row < elements.length; row++) {
                        elements[row] = CopyRows.valueText(rows.get(row)[column]);
                    }
                    values.add(connection.createArrayOf("text", elements));
                }
                copy.clear();
            } else {
                for (Object[] row : rows) {
                    text.append(queued.sql()).append(";\n");
                    values.addAll(Arrays.asList(row));
                }
                prepare(queued).clearBatch();
            }
        }
        text.append("COMMIT");
        pendingBatches.clear();
        queuedValues.clear();
        queuedCanonicalTxs.clear();
        try (PreparedStatement ps = connection.prepareStatement(text.toString())) {
            for (int i = 0; i < values.size(); i++) {
                bind(ps, i + 1, values.get(i), true);
            }
            ps.execute();
            // Every part's result is read: an error in any part is thrown here.
            while (ps.getMoreResults() || ps.getUpdateCount() != -1) {
                // next part
            }
        }
    }

    /**
     * Column types by table, read from the catalog once per process: every schema and database one
     * build writes to was made by the same migrations, so a table's columns have the same types in
     * all of them.
     */
    private static final Map<String, Map<String, String>> COLUMN_TYPES = new ConcurrentHashMap<>();

    /** The SQL types of {@code target}'s columns, in its column order. */
    private static List<String> columnTypes(Connection connection, CopyRows.Target target) throws SQLException {
        Map<String, String> byColumn = COLUMN_TYPES.get(target.table());
        if (byColumn == null) {
            byColumn = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(WriteSql.COLUMN_TYPES_POSTGRESQL.sql())) {
                ps.setString(1, target.table());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        byColumn.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
            COLUMN_TYPES.put(target.table(), Map.copyOf(byColumn));
        }
        List<String> types = new ArrayList<>();
        for (String column : target.columnNames()) {
            String type = byColumn.get(column.toLowerCase(Locale.ROOT));
            if (type == null) {
                throw new SQLException("no column " + column + " in table " + target.table());
            }
            types.add(type);
        }
        return types;
    }

    /** Sends the rows queued by statements that must precede {@code sql}, oldest statement first, before it runs. */
    private void flushFor(WriteStatement sql) throws SQLException {
        sendQueuedFor(sql, false);
    }

    /** Sends the rows queued by statements that must precede {@code sql} and queued before it did. */
    private void flushQueuedBefore(WriteStatement sql) throws SQLException {
        sendQueuedFor(sql, true);
    }

    /**
     * Sends, oldest statement first, the queued rows of other statements that must precede
     * {@code sql} by their declared tables; with {@code onlyEarlier}, only of those that queued
     * before {@code sql}.
     */
    private void sendQueuedFor(WriteStatement sql, boolean onlyEarlier) throws SQLException {
        if (pendingBatches.isEmpty()) {
            return;
        }
        for (WriteStatement queued : new ArrayList<>(pendingBatches.keySet())) {
            if (queued.equals(sql)) {
                if (onlyEarlier) {
                    return;
                }
            } else if (pendingBatches.containsKey(queued) && WriteStatement.mustPrecede(queued, sql)) {
                // Sending one may have sent others (its own earlier rows): hence the containsKey.
                executeBatch(queued);
            }
        }
    }

    <T> List<T> query(WriteStatement sql, RowMapper<T> mapper, Object... params) throws SQLException {
        flushFor(sql);
        return queryPastTheQueue(sql, mapper, params);
    }

    /** A query of what the database holds, without sending queued rows first: for callers that account for them. */
    private <T> List<T> queryPastTheQueue(WriteStatement sql, RowMapper<T> mapper, Object... params) throws SQLException {
        noteWrite(sql, params);
        PreparedStatement ps = prepare(sql);
        bind(ps, params);
        List<T> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(mapper.map(rs));
            }
        }
        return rows;
    }

    boolean exists(WriteStatement sql, Object... params) throws SQLException {
        return !query(sql, rs -> Boolean.TRUE, params).isEmpty();
    }

    /** As {@link #exists}, without sending queued rows first: for callers that account for them. */
    boolean existsPastTheQueue(WriteStatement sql) throws SQLException {
        return !queryPastTheQueue(sql, rs -> Boolean.TRUE).isEmpty();
    }

    /** Keys of rows {@code inserter}, declared with {@link WrittenKeys#ADDED_BY_CALLER}, inserts (bound as an array). */
    void writingKeys(WriteStatement inserter, Collection<String> keys) {
        writtenKeys.add(inserter, keys);
    }

    /** Of {@code keys}, those the tables of {@code kind} may hold ({@link WrittenKeys#mayBeStored}). */
    List<String> mayBeStored(WrittenKeys.Kind kind, Collection<String> keys) throws SQLException {
        return writtenKeys.mayBeStored(kind, keys, this);
    }

    private PreparedStatement prepare(WriteStatement statement) throws SQLException {
        PreparedStatement ps = prepared.get(statement.sql());
        if (ps == null) {
            ps = connection.prepareStatement(statement.sql());
            prepared.put(statement.sql(), ps);
        }
        return ps;
    }

    /** Binds {@code params} in order, as every write-path statement is bound (ChainWriter's plain JDBC too). */
    static void bind(PreparedStatement ps, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            bind(ps, i + 1, params[i], false);
        }
    }

    /**
     * Binds one value. With {@code untypedText}, text goes without a type (pgjdbc's
     * {@code Types.OTHER}) and the database takes the column's type, as COPY's rows are encoded in
     * it ({@link CopyRows}): the rows of a COPY table hold text for numeric columns (amounts),
     * which a typed varchar parameter of a statement sent in one round trip with others
     * ({@link #sendQueueAndCommit}) would refuse.
     */
    private static void bind(PreparedStatement ps, int index, Object p, boolean untypedText) throws SQLException {
        if (p == null) {
            ps.setNull(index, Types.NULL);
        } else if (p instanceof BigInteger big) {
            ps.setBigDecimal(index, new BigDecimal(big));
        } else if (p instanceof Boolean b) {
            ps.setBoolean(index, b);
        } else if (p instanceof Integer n) {
            ps.setInt(index, n);
        } else if (p instanceof Long n) {
            ps.setLong(index, n);
        } else if (p instanceof java.sql.Array array) {
            ps.setArray(index, array);
        } else if (untypedText) {
            ps.setObject(index, p.toString(), Types.OTHER);
        } else {
            ps.setString(index, p.toString());
        }
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (PreparedStatement ps : prepared.values()) {
            try {
                ps.close();
            } catch (SQLException e) {
                first = first == null ? e : first;
            }
        }
        prepared.clear();
        if (first != null) {
            throw first;
        }
    }
}
