package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Mempool transactions added during the open database transaction, held back until it ends
 * ({@link #flush}). A replay writes a few hundred consecutive payloads per database transaction,
 * and most transactions announced in them are mined a block or two later, within the same
 * transaction: written at once, each cost an insert into {@code mempool_txs}, one insert per
 * principal into {@code mempool_principals} (three indexes), a pending count up per principal,
 * then an update to prune it, a delete of its principals and the counts down again; the indexes
 * and the dead rows stay. Held back, a transaction mined (or dropped) before the end is written
 * once, already pruned, and its principals and counts never at all: the rows the database ends
 * with are the same.
 *
 * <p>Everything in the write path that reads the mempool tables within a transaction asks here
 * first ({@link MempoolWrites}); nothing outside the transaction sees it before the commit anyway.
 */
final class UnwrittenMempool {

    /** One added transaction and what became of it so far in this database transaction. */
    static final class Entry {
        final String txId;
        final NewMempoolTransaction tx;
        final TxFacts facts;
        /** The chain height it was received at, or returned at by a reorg (the garbage collection's clock). */
        long receiptHeight;
        boolean pruned;
        /** The status it leaves with: {@code pending} while pending and when mined, else the drop reason. */
        String status = "pending";
        /** The transaction that took its place ({@link MempoolReplacement}), or null. */
        String replacedBy;

        Entry(String txId, NewMempoolTransaction tx, TxFacts facts, long receiptHeight) {
            this.txId = txId;
            this.tx = tx;
            this.facts = facts;
            this.receiptHeight = receiptHeight;
        }
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    /** The entries by the nonces they spend, pending or not (replace-by-fee's look-up). */
    private final Map<NonceSlot, List<Entry>> bySlot = new HashMap<>();
    /** No entry still pending was received below this height (a bound, for a cheap check per block). */
    private long oldestPending = Long.MAX_VALUE;

    boolean contains(String txId) {
        return entries.containsKey(txId);
    }

    void add(String txId, NewMempoolTransaction tx, TxFacts facts, long receiptHeight) {
        Entry entry = new Entry(txId, tx, facts, receiptHeight);
        entries.put(txId, entry);
        for (NonceSlot slot : NonceSlot.of(facts)) {
            bySlot.computeIfAbsent(slot, s -> new ArrayList<>()).add(entry);
        }
        oldestPending = Math.min(oldestPending, receiptHeight);
    }

    Entry get(String txId) {
        return entries.get(txId);
    }

    /** The held-back entries still pending that spend one of {@code slots}. */
    Set<String> pendingSpending(Collection<NonceSlot> slots) {
        if (bySlot.isEmpty()) {
            return Set.of();
        }
        Set<String> found = new LinkedHashSet<>();
        for (NonceSlot slot : slots) {
            for (Entry e : bySlot.getOrDefault(slot, List.of())) {
                if (!e.pruned) {
                    found.add(e.txId);
                }
            }
        }
        return found;
    }

    /** The held-back entries dropped as replaced by {@code winner}. */
    List<String> replacedBy(String winner) {
        List<String> ids = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (e.pruned && winner.equals(e.replacedBy)) {
                ids.add(e.txId);
            }
        }
        return ids;
    }

    /** The held-back entries still pending that were received at most at {@code height}. */
    List<String> pendingSinceAtMost(long height) {
        if (oldestPending > height) {
            return List.of();
        }
        List<String> stale = new ArrayList<>();
        long oldest = Long.MAX_VALUE;
        for (Entry e : entries.values()) {
            if (!e.pruned) {
                if (e.receiptHeight <= height) {
                    stale.add(e.txId);
                } else {
                    oldest = Math.min(oldest, e.receiptHeight);
                }
            }
        }
        oldestPending = oldest;
        return stale;
    }

    /**
     * Takes a held-back pending transaction out of the mempool (mined: {@code status} pending;
     * dropped: the node's reason); false when it is not held back here or no longer pending.
     */
    boolean prune(String txId, String status) {
        Entry entry = entries.get(txId);
        if (entry == null || entry.pruned) {
            return false;
        }
        entry.pruned = true;
        entry.status = status;
        return true;
    }

    /**
     * A held-back transaction that was pruned in this database transaction is pending again (a
     * reorg), its garbage-collection clock restarting at {@code receiptHeight} as a written row's
     * does; false otherwise.
     */
    boolean restore(String txId, long receiptHeight) {
        Entry entry = entries.get(txId);
        if (entry == null || !entry.pruned) {
            return false;
        }
        entry.pruned = false;
        entry.status = "pending";
        entry.replacedBy = null;
        entry.receiptHeight = receiptHeight;
        oldestPending = Math.min(oldestPending, receiptHeight);
        return true;
    }

    /**
     * Writes every held-back transaction as it stands now: one {@code mempool_txs} row each, and
     * for those still pending their principals and pending counts. Call before the counters are
     * written and before the commit.
     */
    void flush(Statements sql) throws SQLException {
        if (sql.isPostgres() && !entries.isEmpty() && entries.size() <= Statements.CHUNK) {
            flushInOneStatement(sql);
            return;
        }
        for (Entry e : entries.values()) {
            NewMempoolTransaction tx = e.tx;
            sql.addBatch(MempoolWrites.INSERT_MEMPOOL_TX_STATE, e.txId, tx.rawTx(), tx.receiptTime(), e.status, e.pruned,
                    e.facts.txType(), e.facts.nonce(), e.facts.fee(), e.facts.senderAddress(),
                    e.facts.sponsorAddress(), e.facts.contractId(), e.receiptHeight, e.facts.sponsorNonce(),
                    e.replacedBy);
            if (e.pruned) {
                sql.mempool().noLongerPending(e.txId);
            } else {
                sql.mempool().pendingSince(e.txId, e.receiptHeight, NonceSlot.of(e.facts));
            }
            if (!e.pruned) {
                for (String principal : e.facts.directPrincipals()) {
                    sql.addBatch(MempoolWrites.INSERT_MEMPOOL_PRINCIPAL, principal, e.txId, tx.receiptTime());
                    sql.mempool().addDelta(principal, 1);
                }
            }
        }
        entries.clear();
        bySlot.clear();
        oldestPending = Long.MAX_VALUE;
    }

    /** PostgreSQL, a few entries (a node's delivery): the same rows as {@link #flush} queues, in one statement. */
    private void flushInOneStatement(Statements sql) throws SQLException {
        int n = entries.size();
        String[] txTypes = {"varchar", "varchar", "bigint", "varchar", "boolean", "varchar", "bigint", "varchar",
                "varchar", "varchar", "varchar", "bigint", "bigint", "varchar"};
        int txColumnCount = txTypes.length;
        Object[][] txColumns = new Object[txColumnCount][];
        for (int column = 0; column < txColumnCount; column++) {
            txColumns[column] = newColumn(txTypes[column], n);
        }
        List<Object[]> principalRows = new ArrayList<>();
        int i = 0;
        for (Entry e : entries.values()) {
            NewMempoolTransaction tx = e.tx;
            Object[] row = {e.txId, tx.rawTx(), tx.receiptTime(), e.status, e.pruned, e.facts.txType(),
                    e.facts.nonce(), e.facts.fee().toString(), e.facts.senderAddress(), e.facts.sponsorAddress(),
                    e.facts.contractId(), e.receiptHeight, e.facts.sponsorNonce(), e.replacedBy};
            for (int column = 0; column < row.length; column++) {
                txColumns[column][i] = row[column];
            }
            i++;
            if (e.pruned) {
                sql.mempool().noLongerPending(e.txId);
            } else {
                sql.mempool().pendingSince(e.txId, e.receiptHeight, NonceSlot.of(e.facts));
                for (String principal : e.facts.directPrincipals()) {
                    principalRows.add(new Object[]{principal, e.txId, tx.receiptTime()});
                    sql.mempool().addDelta(principal, 1);
                }
            }
        }
        Object[] params = new Object[txColumnCount + 3];
        for (int column = 0; column < txColumnCount; column++) {
            params[column] = sql.array(txTypes[column], txColumns[column]);
        }
        String[] principalTypes = {"varchar", "varchar", "bigint"};
        for (int column = 0; column < 3; column++) {
            Object[] values = newColumn(principalTypes[column], principalRows.size());
            for (int r = 0; r < values.length; r++) {
                values[r] = principalRows.get(r)[column];
            }
            params[txColumnCount + column] = sql.array(principalTypes[column], values);
        }
        // Queued: sent with the transaction's other last statements in one round trip.
        sql.writingKeys(MempoolWrites.INSERT_MEMPOOL_TXS_WITH_PRINCIPALS_POSTGRESQL, entries.keySet());
        sql.addBatch(MempoolWrites.INSERT_MEMPOOL_TXS_WITH_PRINCIPALS_POSTGRESQL, params);
        sql.countRows(n + principalRows.size() - 1);
        entries.clear();
        bySlot.clear();
        oldestPending = Long.MAX_VALUE;
    }

    /** An array for one column's values, of the Java type the driver maps to {@code type}. */
    private static Object[] newColumn(String type, int size) {
        return switch (type) {
            case "bigint" -> new Long[size];
            case "boolean" -> new Boolean[size];
            default -> new String[size];
        };
    }
}
