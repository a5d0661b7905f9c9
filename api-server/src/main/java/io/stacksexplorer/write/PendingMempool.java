package io.stacksexplorer.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The ids of the pending mempool transactions ({@code mempool_txs.pruned = FALSE}) as of the last
 * commit, so that "which of the transactions this block mines were pending?" is answered from
 * memory. Asked once per block, that query was the costliest lookup of a replay: 23,561 calls and
 * 10.0 s of PostgreSQL's time for 1,000,000 transactions, random probes into the mempool's primary
 * key.
 *
 * <p>Each id is kept with the chain height it became pending at, so that the garbage collection
 * ({@link MempoolWrites#collectGarbage}) finds the stale ones from memory too.
 *
 * <p>Complete or not used at all: it is loaded by the first statement of a database transaction
 * (so it sees only committed rows), changed only by the changes of transactions that committed
 * ({@link #commit}), and correct because this process is the only writer (see {@link WriteSql}).
 * A failed commit, a rebuild, or more pending transactions than {@link #MAX_PENDING} (a mempool
 * that is never pruned) drop it, and the write path asks the database again. Its methods are
 * synchronized: the event listener, a replay and the demo loader may each call the writer from a
 * thread of their own, though never two at once against one database.
 */
final class PendingMempool {

    /** About 10 MB of ids; a node's mempool holds a few thousand to a few tens of thousands. */
    static final int MAX_PENDING = 100_000;

    /** A change's value for "no longer pending" (any other value is the receipt height). */
    static final long NOT_PENDING = Long.MIN_VALUE;

    /** Pending ids with their receipt heights, and the same by height. */
    private Map<String, Long> pending;
    private TreeMap<Long, Set<String>> byHeight;
    /** The nonces the pending ones spend, both ways: replace-by-fee's look-up ({@link MempoolReplacement}). */
    private Map<String, List<NonceSlot>> slotsOf;
    private Map<NonceSlot, Set<String>> bySlot;
    /** Too many pending transactions to hold: the database answers, until a rebuild empties it. */
    private boolean tooLarge;

    /** Whether {@link #load} should run at the start of the next database transaction. */
    synchronized boolean wantsLoad() {
        return pending == null && !tooLarge;
    }

    /**
     * The committed pending ids with their receipt heights and the nonces they spend, read by the
     * first statement of a database transaction.
     */
    synchronized void load(Map<String, Long> committedPending, Map<String, List<NonceSlot>> slots) {
        pending = new HashMap<>();
        byHeight = new TreeMap<>();
        slotsOf = new HashMap<>();
        bySlot = new HashMap<>();
        committedPending.forEach((txId, height) -> add(txId, height, slots.get(txId)));
        dropIfTooLarge();
    }

    private void add(String txId, long height, List<NonceSlot> slots) {
        remove(txId);
        pending.put(txId, height);
        byHeight.computeIfAbsent(height, h -> new HashSet<>()).add(txId);
        if (slots != null) {
            slotsOf.put(txId, slots);
            for (NonceSlot slot : slots) {
                bySlot.computeIfAbsent(slot, s -> new HashSet<>()).add(txId);
            }
        }
    }

    private void remove(String txId) {
        Long height = pending.remove(txId);
        if (height != null) {
            Set<String> ids = byHeight.get(height);
            ids.remove(txId);
            if (ids.isEmpty()) {
                byHeight.remove(height);
            }
        }
        List<NonceSlot> slots = slotsOf.remove(txId);
        if (slots != null) {
            for (NonceSlot slot : slots) {
                Set<String> ids = bySlot.get(slot);
                ids.remove(txId);
                if (ids.isEmpty()) {
                    bySlot.remove(slot);
                }
            }
        }
    }

    synchronized boolean known() {
        return pending != null;
    }

    synchronized boolean isPending(String txId) {
        return pending.containsKey(txId);
    }

    /** The lowest receipt height among the pending (Long.MAX_VALUE when none). */
    synchronized long oldestReceiptHeight() {
        return byHeight.isEmpty() ? Long.MAX_VALUE : byHeight.firstKey();
    }

    /** The pending ids received at most at {@code height}. */
    synchronized List<String> pendingSinceAtMost(long height) {
        List<String> ids = new ArrayList<>();
        for (Set<String> atHeight : byHeight.headMap(height, true).values()) {
            ids.addAll(atHeight);
        }
        return ids;
    }

    /** The pending ids that spend {@code slot}. */
    synchronized Set<String> pendingIn(NonceSlot slot) {
        Set<String> ids = bySlot.get(slot);
        return ids == null ? Set.of() : Set.copyOf(ids);
    }

    /**
     * Applies the pending states a committed transaction left (receipt height, or {@link #NOT_PENDING}),
     * with the nonces each newly pending one spends.
     */
    synchronized void commit(Map<String, Long> changes, Map<String, List<NonceSlot>> slots) {
        if (pending == null) {
            return;
        }
        for (Map.Entry<String, Long> e : changes.entrySet()) {
            if (e.getValue() != NOT_PENDING) {
                add(e.getKey(), e.getValue(), slots.get(e.getKey()));
            } else {
                remove(e.getKey());
            }
        }
        dropIfTooLarge();
    }

    private void dropIfTooLarge() {
        if (pending.size() > MAX_PENDING) {
            pending = null;
            byHeight = null;
            slotsOf = null;
            bySlot = null;
            tooLarge = true;
        }
    }

    /** Forgets everything (a failed commit, a rebuild): loaded again by the next transaction. */
    synchronized void invalidate() {
        pending = null;
        byHeight = null;
        slotsOf = null;
        bySlot = null;
        tooLarge = false;
    }
}
