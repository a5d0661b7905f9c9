package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The mempool as one database transaction sees and changes it: which written rows are pending
 * (the committed set of {@link PendingMempool} plus this transaction's changes, applied to it by
 * {@link #afterCommit}), the rows held back until the end ({@link UnwrittenMempool}), the pending
 * counts per principal and the mempool version, written once by {@link #finish}.
 */
final class MempoolState {

    private final Statements sql;
    private final PendingMempool pendingMempool;
    private final Map<String, Long> mempoolDeltas = new HashMap<>();
    private final UnwrittenMempool unwrittenMempool = new UnwrittenMempool();
    private boolean mempoolChanged;
    /** Pending states this transaction set, by transaction id (true: pending); for {@link #pendingMempool}. */
    private final Map<String, Long> pendingChanges = new HashMap<>();
    /** The nonces each row this transaction made pending spends; for {@link #pendingMempool}. */
    private final Map<String, List<NonceSlot>> pendingSlots = new HashMap<>();
    /**
     * Transactions whose mempool state this database transaction changed on its own account, not the
     * node's, for the change log: replaced by fee ({@link MempoolReplacement}), garbage-collected
     * ({@link MempoolWrites#collectGarbage}), or pending again with the transaction that had replaced
     * them when a reorg returns it.
     */
    private final List<String> changedHere = new ArrayList<>();

    MempoolState(Statements sql, PendingMempool pendingMempool) {
        this.sql = sql;
        this.pendingMempool = pendingMempool;
    }

    /**
     * Loads the committed pending mempool ids when they are not known yet. Call as the first
     * statement of the transaction, before it writes anything, so that only committed rows are read.
     */
    void loadIfWanted() throws SQLException {
        if (pendingMempool.wantsLoad()) {
            Map<String, Long> committed = new HashMap<>();
            Map<String, List<NonceSlot>> slots = new HashMap<>();
            sql.query(MempoolWrites.PENDING_MEMPOOL_IDS, rs -> {
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
                found.addAll(sql.query(MempoolReplacement.PENDING_SPENDING, rs -> rs.getString(1),
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
            if (!Collections.disjoint(changed.getValue(), slots)) {
                found.add(changed.getKey());
            }
        }
        return found;
    }

    /** Transactions whose mempool state this database transaction changed on its own account (not the node's), in order. */
    List<String> changedHere() {
        return changedHere;
    }

    /**
     * The written rows pending since at most {@code height} (garbage-collection candidates): from
     * memory when the committed pending set is known, plus this transaction's changes; else asked.
     */
    List<String> pendingSinceAtMost(long height) throws SQLException {
        if (!pendingMempool.known()) {
            return sql.query(MempoolWrites.STALE_PENDING, rs -> rs.getString(1), height);
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
     * ({@link PendingMempool}) plus this transaction's changes, else one query per {@value StatementQueue#CHUNK} ids.
     */
    Set<String> pendingAmong(Collection<String> txIds) throws SQLException {
        if (!pendingMempool.known()) {
            return new HashSet<>(sql.queryIn(MempoolWrites.PENDING_AMONG_IN_CHUNK, txIds, rs -> rs.getString(1)));
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

    /** Mempool transactions added in this transaction and not written yet (written by {@link #finish}). */
    UnwrittenMempool unwritten() {
        return unwrittenMempool;
    }

    /** Pending-count deltas per principal, applied once by {@link #finish}. */
    void addDelta(String principal, long delta) {
        mempoolDeltas.merge(principal, delta, Long::sum);
    }

    /** The served mempool changed: its version (for conditional requests) is bumped once, by {@link #finish}. */
    void changed() {
        mempoolChanged = true;
    }

    /** Writes the held-back rows: first of {@link Statements#finish}, before the counters. */
    void flushUnwritten() throws SQLException {
        unwrittenMempool.flush(sql);
    }

    /** Writes the pending counts per principal and bumps the mempool version if it changed. */
    void finish() throws SQLException {
        mempoolDeltas.values().removeIf(d -> d == 0);
        boolean bumped = Counters.addMempoolCounts(sql, mempoolDeltas, mempoolChanged);
        mempoolDeltas.clear();
        if (mempoolChanged && !bumped) {
            sql.addBatch(WriteSql.BUMP_MEMPOOL_VERSION);
        }
        mempoolChanged = false;
    }

    /** The transaction committed: its pending states become the committed ones. */
    void afterCommit() {
        pendingMempool.commit(pendingChanges, pendingSlots);
    }
}
