package io.stacksexplorer.write;

import java.math.BigInteger;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.stacksexplorer.write.Table.MEMPOOL_TXS;
import static io.stacksexplorer.write.Table.TXS;
import static io.stacksexplorer.write.WriteStatement.reading;
import static io.stacksexplorer.write.WriteStatement.writing;

/**
 * Replace-by-fee: of the transactions that spend one account nonce ({@link NonceSlot}), at most one
 * can ever be mined, so the others leave the mempool as {@code dropped_replace_by_fee}, naming the
 * one that took their place in {@code replaced_by_tx_id}:
 * <ul>
 *   <li>when a canonical block or microblock mines one of them, every other one still pending is
 *       replaced by it ({@link #afterMined});</li>
 *   <li>while none is mined, a transaction entering the mempool competes with the pending ones that
 *       spend one of its nonces: the highest fee stays, then the latest received, then the greatest
 *       id (a total order, so a replay decides as the live feed did) ({@link #afterAdded});</li>
 *   <li>a reorg that returns a transaction to the mempool returns the ones it replaced
 *       ({@link #replacedBy}); the next block decides again.</li>
 * </ul>
 * The peer (v9) applies the same rules with two differences we do not copy: it matches a sponsored
 * transaction's <em>origin</em> nonce against its <em>sponsor's</em> address (so it drops
 * transactions that can still be mined), and it lets rows dropped for another reason win or lose a
 * competition. Only pending rows compete here.
 */
final class MempoolReplacement {

    static final String REPLACED = "dropped_replace_by_fee";

    /** Pending rows spending a nonce (bound: address, nonce twice), when the pending set is not in memory. */
    static final WriteStatement PENDING_SPENDING = reading(MEMPOOL_TXS).sql("""
            SELECT tx_id FROM mempool_txs
            WHERE pruned = FALSE AND ((sender_address = ? AND nonce = ?) OR (sponsor_address = ? AND sponsor_nonce = ?))""");
    static final WriteStatement SET_REPLACED_BY = writing(MEMPOOL_TXS).sql(
            "UPDATE mempool_txs SET replaced_by_tx_id = ? WHERE tx_id = ?");
    static final WriteStatement REPLACED_BY = reading(MEMPOOL_TXS).sql(
            "SELECT tx_id FROM mempool_txs WHERE replaced_by_tx_id = ? AND tx_status = '" + REPLACED + "'");
    static final WriteStatement CANONICAL_RAW_TX = reading(TXS).sql(
            "SELECT raw_tx FROM txs WHERE tx_id = ? AND canonical = TRUE AND microblock_canonical = TRUE");
    static final WriteStatement FEE_AND_RECEIPT = reading(MEMPOOL_TXS).sql(
            "SELECT fee_rate, receipt_time FROM mempool_txs WHERE tx_id = ?");

    private MempoolReplacement() {
    }

    /**
     * A canonical block or microblock mined {@code mined}; true when any pending transaction was
     * replaced.
     *
     * @param mined   transaction ids with their decoded columns, or null when not decoded yet (a
     *                transaction a fork switch rejoined): then read from {@code txs} and decoded
     *                with {@code decoder} (when null, skipped). Bitcoin-originated operations and
     *                {@code problematic_skipped} transactions spend no Stacks nonce and must not be
     *                among them ({@link #spendsANonce}).
     */
    static boolean afterMined(Statements sql, Map<String, TxFacts> mined, TxDecoder decoder) throws SQLException {
        boolean replaced = false;
        for (Map.Entry<String, TxFacts> tx : mined.entrySet()) {
            TxFacts facts = tx.getValue() != null ? tx.getValue() : canonicalFacts(sql, tx.getKey(), decoder);
            if (facts == null) {
                continue;
            }
            for (String rival : pendingSpending(sql, NonceSlot.of(facts))) {
                if (!mined.containsKey(rival)) {
                    replaced |= replace(sql, rival, tx.getKey());
                }
            }
        }
        return replaced;
    }

    /**
     * False for the transaction the write path builds for a Bitcoin-originated operation
     * (ingest.BurnchainOperations): standard authorization, single signature, 65 zero bytes as the
     * signature (at byte 44), nonce 0. Such an operation spends no Stacks nonce, so it replaces
     * nothing. Read at fixed offsets, so a block costs no decoding.
     */
    static boolean spendsANonce(String rawTx) {
        return !(rawTx.length() >= UNSIGNED_AT + UNSIGNED_HEX.length()
                && rawTx.regionMatches(AUTH_TYPE_AT, "04", 0, 2)
                && rawTx.regionMatches(UNSIGNED_AT, UNSIGNED_HEX, 0, UNSIGNED_HEX.length()));
    }

    /** Hex offsets in {@code 0x}-hex: version (1 byte), chain id (4), then the authorization type. */
    private static final int AUTH_TYPE_AT = 2 + 2 * 5;
    /** Then hash mode (1), signer (20), nonce (8), fee (8), key encoding (1): the signature. */
    private static final int UNSIGNED_AT = 2 + 2 * (5 + 1 + 1 + 20 + 8 + 8 + 1);
    private static final String UNSIGNED_HEX = "00".repeat(65);

    private static TxFacts canonicalFacts(Statements sql, String txId, TxDecoder decoder) throws SQLException {
        if (decoder == null) {
            return null;
        }
        List<String> raw = sql.query(CANONICAL_RAW_TX, rs -> rs.getString(1), txId);
        if (raw.isEmpty() || !spendsANonce(raw.get(0))) {
            return null;
        }
        try {
            return decoder.decode(raw.get(0));
        } catch (RuntimeException held) {
            return null; // a transaction this build cannot read (write.HeldTransaction): its nonce is unknown
        }
    }

    /** {@code added} entered the mempool (held back in {@link UnwrittenMempool}); true when any transaction was replaced. */
    static boolean afterAdded(Statements sql, Collection<String> added) throws SQLException {
        boolean replaced = false;
        for (String txId : added) {
            UnwrittenMempool.Entry entry = sql.mempool().unwritten().get(txId);
            if (entry == null || entry.pruned) {
                continue;
            }
            Set<String> rivals = pendingSpending(sql, NonceSlot.of(entry.facts));
            rivals.remove(txId);
            if (rivals.isEmpty()) {
                continue;
            }
            List<Bid> bids = new ArrayList<>();
            bids.add(new Bid(txId, entry.facts.fee(), entry.tx.receiptTime()));
            for (String rival : rivals) {
                bids.add(bidOf(sql, rival));
            }
            String winner = bids.stream().max(Bid.ORDER).orElseThrow().txId();
            for (Bid bid : bids) {
                if (!bid.txId().equals(winner)) {
                    replaced |= replace(sql, bid.txId(), winner);
                }
            }
        }
        return replaced;
    }

    /** The transactions {@code winner} replaced: a reorg that returns it to the mempool returns them too. */
    static List<String> replacedBy(Statements sql, String winner) throws SQLException {
        List<String> ids = new ArrayList<>(sql.mempool().unwritten().replacedBy(winner));
        ids.addAll(sql.query(REPLACED_BY, rs -> rs.getString(1), winner));
        return ids;
    }

    /**
     * Takes a pending transaction out of the mempool as dropped with {@code status}, naming
     * {@code replacedBy} (may be null; the node's {@code new_txid} for any drop reason, as the peer
     * stores it); false when it was not pending.
     */
    static boolean drop(Statements sql, String txId, String status, String replacedBy) throws SQLException {
        UnwrittenMempool unwritten = sql.mempool().unwritten();
        if (unwritten.contains(txId)) {
            if (!unwritten.prune(txId, status)) {
                return false;
            }
            unwritten.get(txId).replacedBy = replacedBy;
            return true;
        }
        if (!MempoolWrites.remove(sql, txId, status)) {
            return false;
        }
        if (replacedBy != null) {
            sql.update(SET_REPLACED_BY, replacedBy, txId);
        }
        return true;
    }

    private static boolean replace(Statements sql, String txId, String winner) throws SQLException {
        if (!drop(sql, txId, REPLACED, winner)) {
            return false;
        }
        sql.mempool().changedHere().add(txId);
        return true;
    }

    /** The pending transactions, held back or written, that spend one of {@code slots}. */
    private static Set<String> pendingSpending(Statements sql, List<NonceSlot> slots) throws SQLException {
        Set<String> found = new LinkedHashSet<>(sql.mempool().unwritten().pendingSpending(slots));
        found.addAll(sql.mempool().pendingSpending(slots));
        return found;
    }

    private static Bid bidOf(Statements sql, String txId) throws SQLException {
        UnwrittenMempool.Entry entry = sql.mempool().unwritten().get(txId);
        if (entry != null) {
            return new Bid(txId, entry.facts.fee(), entry.tx.receiptTime());
        }
        return sql.query(FEE_AND_RECEIPT, rs -> new Bid(txId, rs.getBigDecimal(1).toBigInteger(), rs.getLong(2)), txId)
                .get(0);
    }

    /** What a pending transaction offers for its nonce. */
    private record Bid(String txId, BigInteger fee, long receiptTime) {
        static final Comparator<Bid> ORDER = Comparator.comparing(Bid::fee)
                .thenComparingLong(Bid::receiptTime)
                .thenComparing(Bid::txId);
    }
}
