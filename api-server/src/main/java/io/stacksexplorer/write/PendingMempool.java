package io.stacksexplorer.write;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The ids of the pending mempool transactions ({@code mempool_txs.pruned = FALSE}) as of the last
 * commit, so that "which of the transactions this block mines were pending?" is answered from
 * memory. Asked once per block, that query was the costliest lookup of a replay: 23,561 calls and
 * 10.0 s of PostgreSQL's time for 1,000,000 transactions, random probes into the mempool's primary
 * key.
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

    private Set<String> pending;
    /** Too many pending transactions to hold: the database answers, until a rebuild empties it. */
    private boolean tooLarge;

    /** Whether {@link #load} should run at the start of the next database transaction. */
    synchronized boolean wantsLoad() {
        return pending == null && !tooLarge;
    }

    /** The committed pending ids, read by the first statement of a database transaction. */
    synchronized void load(Collection<String> committedPending) {
        pending = new HashSet<>(committedPending);
        dropIfTooLarge();
    }

    synchronized boolean known() {
        return pending != null;
    }

    synchronized boolean isPending(String txId) {
        return pending.contains(txId);
    }

    /** Applies the pending states a committed transaction left (true: pending, false: not). */
    synchronized void commit(Map<String, Boolean> changes) {
        if (pending == null) {
            return;
        }
        for (Map.Entry<String, Boolean> e : changes.entrySet()) {
            if (e.getValue()) {
                pending.add(e.getKey());
            } else {
                pending.remove(e.getKey());
            }
        }
        dropIfTooLarge();
    }

    private void dropIfTooLarge() {
        if (pending.size() > MAX_PENDING) {
            pending = null;
            tooLarge = true;
        }
    }

    /** Forgets everything (a failed commit, a rebuild): loaded again by the next transaction. */
    synchronized void invalidate() {
        pending = null;
        tooLarge = false;
    }
}
