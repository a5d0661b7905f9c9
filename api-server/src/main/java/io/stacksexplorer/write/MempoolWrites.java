package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.stacksexplorer.write.Table.*;
import static io.stacksexplorer.write.WriteStatement.reading;
import static io.stacksexplorer.write.WriteStatement.writing;

/**
 * Pending transactions: added and dropped as the node reports, mined, returned by reorgs, and
 * garbage-collected when still pending {@value #GARBAGE_COLLECTION_THRESHOLD} blocks later.
 */
final class MempoolWrites {

    // --- SQL (the write path's mempool statements) ---------------------------------------------

    /** The pending ids, at most as many as bound (PendingMempool loads them once). */
    static final WriteStatement PENDING_MEMPOOL_IDS = reading(MEMPOOL_TXS).sql(
            "SELECT tx_id, receipt_block_height, sender_address, nonce, sponsor_address, sponsor_nonce"
            + " FROM mempool_txs WHERE pruned = FALSE FETCH FIRST ? ROWS ONLY");
    /** Pending since at most the given height: the garbage collection's candidates. */
    static final WriteStatement STALE_PENDING = reading(MEMPOOL_TXS).sql(
            "SELECT tx_id FROM mempool_txs WHERE pruned = FALSE AND receipt_block_height <= ?");
    /** For a chunk of ids ({@link Statements#queryIn}). */
    static final WriteStatement PENDING_AMONG_IN_CHUNK = reading(MEMPOOL_TXS).sql(
            "SELECT tx_id FROM mempool_txs WHERE pruned = FALSE AND tx_id IN (" + WriteSql.CHUNK_OF_KEYS + ")");

    /**
     * Of {@code places} ids (bound twice): those the mempool holds (pending or not), with 0, and
     * those mined on the canonical chain and served, with 1. Both questions a run of new mempool
     * transactions asks, in one round trip. A delivery from a live node carries
     * one to a few transactions: padded to {@value Statements#CHUNK} places (twice), the statement
     * bound 128 parameters and cost 0.33 ms of PostgreSQL's time per call, the costliest statement
     * of the observer path (pg_stat_statements, 10,000-transaction mixed log). Sized to the next
     * power of two, seven statement texts serve every size.
     */
    static final List<WriteStatement> MEMPOOL_KNOWN_OR_MINED_BY_LOG2_PLACES = mempoolKnownOrMined();

    private static List<WriteStatement> mempoolKnownOrMined() {
        List<WriteStatement> statements = new ArrayList<>();
        for (int places = 1; places <= Statements.CHUNK; places *= 2) {
            statements.add(reading(MEMPOOL_TXS, TXS).sql(
                    "SELECT tx_id, 0 FROM mempool_txs WHERE tx_id IN (" + WriteSql.places(places) + ")"
                    + " UNION ALL SELECT tx_id, 1 FROM txs WHERE canonical = TRUE AND microblock_canonical = TRUE"
                    + " AND tx_id IN (" + WriteSql.places(places) + ")"));
        }
        return List.copyOf(statements);
    }

    static final WriteStatement MEMPOOL_PRINCIPALS_AMONG_IN_CHUNK = reading(MEMPOOL_PRINCIPALS).sql(
            "SELECT principal FROM mempool_principals WHERE tx_id IN (" + WriteSql.CHUNK_OF_KEYS + ")");

    static final WriteStatement INSERT_MEMPOOL_TX_STATE = writing(MEMPOOL_TXS).sql("""
            INSERT INTO mempool_txs (tx_id, raw_tx, receipt_time, tx_status, pruned, tx_type, nonce, fee_rate,
                sender_address, sponsor_address, contract_id, receipt_block_height, sponsor_nonce, replaced_by_tx_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");

    /**
     * PostgreSQL: the rows of {@link #INSERT_MEMPOOL_TX_STATE} and {@link #INSERT_MEMPOOL_PRINCIPAL}
     * of a few transactions (a node's delivery) in one statement over arrays, one per column: one
     * round trip where the two COPYs took four. A replay's many rows still go by COPY.
     */
    static final WriteStatement INSERT_MEMPOOL_TXS_WITH_PRINCIPALS_POSTGRESQL =
            writing(MEMPOOL_TXS, MEMPOOL_PRINCIPALS).sql("""
            WITH added AS (
                INSERT INTO mempool_txs (tx_id, raw_tx, receipt_time, tx_status, pruned, tx_type, nonce, fee_rate,
                    sender_address, sponsor_address, contract_id, receipt_block_height, sponsor_nonce, replaced_by_tx_id)
                SELECT * FROM UNNEST(?::varchar[], ?::text[], ?::bigint[], ?::varchar[], ?::boolean[], ?::varchar[],
                    ?::bigint[], ?::varchar[]::numeric[], ?::varchar[], ?::varchar[], ?::varchar[], ?::bigint[],
                    ?::bigint[], ?::varchar[]))
            INSERT INTO mempool_principals (principal, tx_id, receipt_time)
            SELECT * FROM UNNEST(?::varchar[], ?::varchar[], ?::bigint[])""");

    static final WriteStatement MEMPOOL_TX = reading(MEMPOOL_TXS).sql(
            "SELECT raw_tx, receipt_time, pruned FROM mempool_txs WHERE tx_id = ?");

    static final WriteStatement INSERT_MEMPOOL_TX = writing(MEMPOOL_TXS).sql("""
            INSERT INTO mempool_txs (tx_id, raw_tx, receipt_time, tx_status, pruned, tx_type, nonce, fee_rate,
                sender_address, sponsor_address, contract_id, receipt_block_height, sponsor_nonce)
            VALUES (?, ?, ?, 'pending', FALSE, ?, ?, ?, ?, ?, ?, ?, ?)""");

    static final WriteStatement SET_MEMPOOL_STATE = writing(MEMPOOL_TXS).sql(
            "UPDATE mempool_txs SET pruned = ?, tx_status = ? WHERE tx_id = ?");
    /**
     * PostgreSQL: {@link #SET_MEMPOOL_STATE} (pruned, 'pending') and {@link #DELETE_MEMPOOL_PRINCIPALS}
     * for the mined transactions of a block, each one statement over an array of ids instead of one
     * per transaction (a block mines about six).
     */
    static final WriteStatement SET_MINED_POSTGRESQL = writing(MEMPOOL_TXS).sql(
            "UPDATE mempool_txs SET pruned = TRUE, tx_status = 'pending' WHERE tx_id = ANY (?::varchar[])");
    static final WriteStatement DELETE_MEMPOOL_PRINCIPALS_OF_POSTGRESQL = writing(MEMPOOL_PRINCIPALS).sql(
            "DELETE FROM mempool_principals WHERE tx_id = ANY (?::varchar[])");
    /** Pending again (a reorg returned it): its garbage-collection clock starts anew. */
    static final WriteStatement SET_MEMPOOL_PENDING_AGAIN = writing(MEMPOOL_TXS).sql(
            "UPDATE mempool_txs SET pruned = FALSE, tx_status = 'pending', replaced_by_tx_id = NULL,"
            + " receipt_block_height = ? WHERE tx_id = ?");

    static final WriteStatement INSERT_MEMPOOL_PRINCIPAL = writing(MEMPOOL_PRINCIPALS).sql(
            "INSERT INTO mempool_principals (principal, tx_id, receipt_time) VALUES (?, ?, ?)");
    static final WriteStatement MEMPOOL_PRINCIPALS_OF_TX = reading(MEMPOOL_PRINCIPALS).sql(
            "SELECT principal FROM mempool_principals WHERE tx_id = ?");
    static final WriteStatement DELETE_MEMPOOL_PRINCIPALS = writing(MEMPOOL_PRINCIPALS).sql(
            "DELETE FROM mempool_principals WHERE tx_id = ?");

    /**
     * Blocks after which a pending transaction is dropped as {@code dropped_stale_garbage_collect},
     * the peer's default ({@code STACKS_MEMPOOL_TX_GARBAGE_COLLECTION_THRESHOLD}). A node drops
     * what it garbage-collects itself; this catches what no node announces a drop for, such as the
     * coinbase of an orphaned block, which no later block can mine.
     */
    static final int GARBAGE_COLLECTION_THRESHOLD = 256;
    static final String GARBAGE_COLLECTED = "dropped_stale_garbage_collect";

    private final TxDecoder decoder;

    MempoolWrites(TxDecoder decoder) {
        this.decoder = decoder;
    }

    TxDecoder decoder() {
        return decoder;
    }

    /**
     * Adds the transactions not known yet; existence checks in bulk. Each is held back until the
     * database transaction ends ({@link UnwrittenMempool}): if it is mined (already, or later in
     * the same transaction) or dropped before, it is written once, already pruned.
     */
    int add(Statements sql, List<NewMempoolTransaction> txs) throws SQLException {
        UnwrittenMempool unwritten = sql.mempool().unwritten();
        Map<String, NewMempoolTransaction> byId = new LinkedHashMap<>();
        for (NewMempoolTransaction tx : txs) {
            String txId = tx.id();
            if (!unwritten.contains(txId)) {
                byId.putIfAbsent(txId, tx);
            }
        }
        Announcements.MempoolKnowledge knowledge = sql.announcements().mempoolKnownOrMined(byId.keySet());
        Long tipHeight = sql.tip().height();
        long receiptHeight = tipHeight == null ? 0 : tipHeight;
        byId.keySet().removeAll(knowledge.known());
        // Reported after it was mined (deliveries can interleave): kept, but not as pending.
        Set<String> mined = knowledge.mined();
        for (Map.Entry<String, NewMempoolTransaction> e : byId.entrySet()) {
            String txId = e.getKey();
            NewMempoolTransaction tx = e.getValue();
            unwritten.add(txId, tx, decoder.factsOf(tx.rawTx(), tx.facts()), receiptHeight);
            if (mined.contains(txId)) {
                unwritten.prune(txId, "pending");
            }
        }
        if (!byId.isEmpty()) {
            MempoolReplacement.afterAdded(sql, byId.keySet());
            sql.mempool().changed();
        }
        return byId.size();
    }

    /**
     * Takes the pending ones among {@code mined} out of the mempool as mined; true when any was.
     *
     * @param mined transaction ids, each with its decoded columns when known (else null): a pending
     *              transaction's principals are exactly its {@link TxFacts#directPrincipals}, as
     *              {@link #add} wrote them, so they are read back only when the facts are unknown
     */
    static boolean removeMined(Statements sql, Map<String, TxFacts> mined) throws SQLException {
        UnwrittenMempool unwritten = sql.mempool().unwritten();
        boolean removed = false;
        List<String> written = new ArrayList<>(mined.size());
        for (String txId : mined.keySet()) {
            if (unwritten.contains(txId)) {
                removed |= unwritten.prune(txId, "pending");
            } else {
                written.add(txId);
            }
        }
        Set<String> pending = sql.mempool().pendingAmong(written);
        if (pending.isEmpty()) {
            return removed;
        }
        List<String> unknownFacts = new ArrayList<>();
        if (sql.isPostgres()) {
            sql.addBatch(SET_MINED_POSTGRESQL, sql.array("varchar", pending.toArray()));
            sql.countRows(pending.size() - 1);
        }
        for (String txId : pending) {
            if (!sql.isPostgres()) {
                sql.addBatch(SET_MEMPOOL_STATE, true, "pending", txId);
            }
            sql.mempool().noLongerPending(txId);
            TxFacts facts = mined.get(txId);
            if (facts == null) {
                unknownFacts.add(txId);
            } else {
                for (String principal : facts.directPrincipals()) {
                    sql.mempool().addDelta(principal, -1);
                }
            }
        }
        for (String principal : sql.queryIn(MEMPOOL_PRINCIPALS_AMONG_IN_CHUNK, unknownFacts,
                rs -> rs.getString(1))) {
            sql.mempool().addDelta(principal, -1);
        }
        if (sql.isPostgres()) {
            sql.addBatch(DELETE_MEMPOOL_PRINCIPALS_OF_POSTGRESQL, sql.array("varchar", pending.toArray()));
            sql.countRows(pending.size() - 1);
        } else {
            for (String txId : pending) {
                sql.addBatch(DELETE_MEMPOOL_PRINCIPALS, txId);
            }
        }
        return true;
    }

    /**
     * Drops pending transactions with the node's reason.
     *
     * @param replacedBy the node's {@code new_txid} (the transaction that took their place), or null
     */
    int drop(Statements sql, Collection<String> txIds, String droppedStatus, String replacedBy) throws SQLException {
        int dropped = 0;
        for (String txId : txIds) {
            if (MempoolReplacement.drop(sql, txId, droppedStatus, replacedBy)) {
                dropped++;
            }
        }
        if (dropped > 0) {
            sql.mempool().changed();
        }
        return dropped;
    }

    private static void addPrincipals(Statements sql, String txId, long receiptTime, TxFacts facts)
            throws SQLException {
        Map<String, Long> deltas = new HashMap<>();
        for (String principal : facts.directPrincipals()) {
            sql.addBatch(INSERT_MEMPOOL_PRINCIPAL, principal, txId, receiptTime);
            deltas.put(principal, 1L);
        }
        sql.executeBatch(INSERT_MEMPOOL_PRINCIPAL);
        Counters.addMempoolCounts(sql, deltas);
    }

    /**
     * Takes a pending transaction out of the mempool: mined ({@code droppedStatus} null, status kept)
     * or dropped. Returns false when it was not pending.
     */
    static boolean remove(Statements sql, String txId, String droppedStatus) throws SQLException {
        if (sql.mempool().unwritten().contains(txId)) {
            return sql.mempool().unwritten().prune(txId, droppedStatus == null ? "pending" : droppedStatus);
        }
        if (sql.mempool().pendingAmong(List.of(txId)).isEmpty()) {
            return false;
        }
        sql.update(SET_MEMPOOL_STATE, true, droppedStatus == null ? "pending" : droppedStatus, txId);
        sql.mempool().noLongerPending(txId);
        Map<String, Long> deltas = new HashMap<>();
        for (String principal : sql.query(MEMPOOL_PRINCIPALS_OF_TX, rs -> rs.getString(1), txId)) {
            deltas.put(principal, -1L);
        }
        sql.update(DELETE_MEMPOOL_PRINCIPALS, txId);
        Counters.addMempoolCounts(sql, deltas);
        return true;
    }

    /**
     * Drops what has been pending for {@value #GARBAGE_COLLECTION_THRESHOLD} blocks as of the new
     * tip {@code tipHeight}; true when any was. Asked once per canonical block: the pending set's
     * oldest receipt height is known in memory, so a block with nothing to collect costs no query.
     */
    boolean collectGarbage(Statements sql, long tipHeight) throws SQLException {
        long receivedAtMost = tipHeight - GARBAGE_COLLECTION_THRESHOLD;
        if (receivedAtMost < 0) {
            return false;
        }
        boolean collected = false;
        for (String txId : sql.mempool().unwritten().pendingSinceAtMost(receivedAtMost)) {
            if (sql.mempool().unwritten().prune(txId, GARBAGE_COLLECTED)) {
                collected = true;
                sql.mempool().changedHere().add(txId);
            }
        }
        for (String txId : sql.mempool().pendingSinceAtMost(receivedAtMost)) {
            if (remove(sql, txId, GARBAGE_COLLECTED)) {
                collected = true;
                sql.mempool().changedHere().add(txId);
            }
        }
        return collected;
    }

    /**
     * A transaction only an orphaned branch had mined is pending again, and so are the ones it had
     * replaced. As the peer does, a transaction the mempool never saw (e.g. the orphaned block's
     * coinbase) enters it, received at the orphaned block's time.
     *
     * @param receiptHeight the new tip's height: a returned transaction's garbage-collection clock
     *                      starts anew there
     */
    boolean returnFromOrphan(Statements sql, String txId, String orphanedBlock, long receiptHeight)
            throws SQLException {
        if (sql.mempool().unwritten().contains(txId)) {
            if (!sql.mempool().unwritten().restore(txId, receiptHeight)) {
                return false;
            }
            returnReplaced(sql, txId, receiptHeight);
            return true;
        }
        List<Object[]> rows = sql.query(MEMPOOL_TX,
                rs -> new Object[]{rs.getString(1), rs.getLong(2), rs.getBoolean(3)}, txId);
        if (rows.isEmpty()) {
            List<Object[]> mined = sql.query(WriteSql.TX_IN_BLOCK,
                    rs -> new Object[]{rs.getString(1), rs.getLong(2)}, txId, orphanedBlock);
            if (mined.isEmpty()) {
                return false;
            }
            String rawTx = (String) mined.get(0)[0];
            long receiptTime = (Long) mined.get(0)[1];
            TxFacts facts = decoder.decode(rawTx);
            sql.update(INSERT_MEMPOOL_TX, txId, rawTx, receiptTime, facts.txType(), facts.nonce(),
                    facts.fee(), facts.senderAddress(), facts.sponsorAddress(), facts.contractId(), receiptHeight,
                    facts.sponsorNonce());
            sql.mempool().pendingSince(txId, receiptHeight, NonceSlot.of(facts));
            addPrincipals(sql, txId, receiptTime, facts);
        } else if (!pendingAgainIfLeft(sql, rows, txId, receiptHeight)) {
            return false;
        }
        returnReplaced(sql, txId, receiptHeight);
        return true;
    }

    /**
     * What {@code winner} replaced is pending again now that no canonical block mines it: the next
     * block (or a rival's arrival) decides anew ({@link MempoolReplacement}). Each one's state
     * changed on this write's own account: it is logged as a change ({@link MempoolState#changedHere}).
     */
    private void returnReplaced(Statements sql, String winner, long receiptHeight) throws SQLException {
        for (String txId : MempoolReplacement.replacedBy(sql, winner)) {
            boolean returned;
            if (sql.mempool().unwritten().contains(txId)) {
                returned = sql.mempool().unwritten().restore(txId, receiptHeight);
            } else {
                returned = pendingAgainIfLeft(sql, sql.query(MEMPOOL_TX,
                        rs -> new Object[]{rs.getString(1), rs.getLong(2), rs.getBoolean(3)}, txId), txId, receiptHeight);
            }
            if (returned) {
                sql.mempool().changedHere().add(txId);
            }
        }
    }

    /**
     * Pending again if its mempool row ({@link #MEMPOOL_TX}: raw, receipt time, pruned) says it left;
     * false when there is no row or it is still pending.
     */
    private boolean pendingAgainIfLeft(Statements sql, List<Object[]> row, String txId, long receiptHeight)
            throws SQLException {
        if (row.isEmpty() || !(Boolean) row.get(0)[2]) {
            return false;
        }
        pendingAgain(sql, txId, (String) row.get(0)[0], (Long) row.get(0)[1], receiptHeight);
        return true;
    }

    private void pendingAgain(Statements sql, String txId, String rawTx, long receiptTime, long receiptHeight)
            throws SQLException {
        TxFacts facts = decoder.decode(rawTx);
        sql.update(SET_MEMPOOL_PENDING_AGAIN, receiptHeight, txId);
        sql.mempool().pendingSince(txId, receiptHeight, NonceSlot.of(facts));
        addPrincipals(sql, txId, receiptTime, facts);
    }
}
