package io.stacksexplorer.write;

import io.micronaut.transaction.TransactionOperations;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import jakarta.inject.Singleton;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one way data enters the database. Each public method is one database transaction: a block
 * with all its transactions, events, derived rows, counters, reorg flips and the new chain tip is
 * written entirely or not at all. Every method is idempotent: writing what is already there
 * changes nothing.
 *
 * <p>Fork choice follows the node: the block it announces last is the chain tip. Its ancestors
 * become canonical and every other canonical block above the fork point becomes non-canonical,
 * together with everything hanging from it and the counters that count it.
 */
@Singleton
public class ChainWriter {

    private final TransactionOperations<Connection> transactions;
    private final TxDecoder decoder;

    public ChainWriter(TransactionOperations<Connection> transactions, TxDecoder decoder) {
        this.transactions = transactions;
        this.decoder = decoder;
    }

    /** Writes one anchored block; a block already stored is acknowledged and ignored. */
    public BlockWriteResult writeBlock(NewBlock block) {
        return inTransaction(sql -> writeBlock(sql, block));
    }

    /** Adds transactions the node reported entering its mempool; known ones are ignored. */
    public int addMempoolTransactions(List<NewMempoolTransaction> txs) {
        return inTransaction(sql -> {
            int added = 0;
            for (NewMempoolTransaction tx : txs) {
                if (addMempoolTransaction(sql, tx)) {
                    added++;
                }
            }
            if (added > 0) {
                sql.update(WriteSql.BUMP_MEMPOOL_VERSION);
            }
            sql.executeAllBatches();
            return added;
        });
    }

    /**
     * Marks pending transactions as dropped with the node's reason, e.g.
     * {@code dropped_replace_by_fee}. Unknown or no longer pending ids are ignored.
     */
    public int dropMempoolTransactions(Collection<String> txIds, String droppedStatus) {
        return inTransaction(sql -> {
            int dropped = 0;
            for (String txId : txIds) {
                if (removeFromMempool(sql, txId, droppedStatus)) {
                    dropped++;
                }
            }
            if (dropped > 0) {
                sql.update(WriteSql.BUMP_MEMPOOL_VERSION);
            }
            return dropped;
        });
    }

    /** Whether any block has been written (the demo chain is only generated into an empty database). */
    public boolean hasBlocks() {
        return inTransaction(sql -> sql.exists(WriteSql.ANY_BLOCK));
    }

    /** Records the PoX unlock heights the node reported; null leaves a height as it is. */
    public void setPoxUnlockHeights(Long v1, Long v2, Long v3) {
        inTransaction(sql -> sql.update(WriteSql.SET_POX_UNLOCK_HEIGHTS, v1, v2, v3));
    }

    // ------------------------------------------------------------------------------------------

    private BlockWriteResult writeBlock(Statements sql, NewBlock block) throws SQLException {
        if (findBlock(sql, block.indexBlockHash()) != null) {
            return BlockWriteResult.unchanged();
        }
        // Walk back from the parent through non-canonical ancestors to the fork point.
        List<String> restored = new ArrayList<>();
        long forkHeight = block.height() - 1;
        BlockRef cursor = findBlock(sql, block.parentIndexBlockHash());
        while (cursor != null && !cursor.canonical()) {
            restored.add(cursor.indexBlockHash());
            forkHeight = cursor.height() - 1;
            cursor = findBlock(sql, cursor.parentIndexBlockHash());
        }
        if (cursor != null) {
            forkHeight = cursor.height();
        }
        List<String> orphaned = sql.query(WriteSql.CANONICAL_BLOCKS_ABOVE, rs -> rs.getString(1), forkHeight);

        Set<String> leftChain = new LinkedHashSet<>();
        for (String hash : orphaned) {
            leftChain.addAll(sql.query(WriteSql.TX_IDS_OF_BLOCK, rs -> rs.getString(1), hash));
            setCanonical(sql, hash, false);
        }
        Set<String> rejoined = new LinkedHashSet<>();
        for (String hash : restored) {
            rejoined.addAll(sql.query(WriteSql.TX_IDS_OF_BLOCK, rs -> rs.getString(1), hash));
            setCanonical(sql, hash, true);
        }

        insertBlock(sql, block);
        for (NewTransaction tx : block.transactions()) {
            rejoined.add(tx.txId());
        }

        // Mempool: what is mined now leaves it; what only the orphaned branch had mined returns.
        boolean mempoolChanged = false;
        for (String txId : rejoined) {
            mempoolChanged |= removeFromMempool(sql, txId, null);
        }
        for (String txId : leftChain) {
            if (!rejoined.contains(txId) && !sql.exists(WriteSql.CANONICAL_TX_EXISTS, txId)) {
                mempoolChanged |= returnToMempool(sql, txId);
            }
        }
        if (mempoolChanged) {
            sql.update(WriteSql.BUMP_MEMPOOL_VERSION);
        }
        sql.update(WriteSql.SET_TIP, block.height(), block.blockHash(), block.indexBlockHash(),
                block.burnBlockHeight());
        return new BlockWriteResult(false, orphaned, restored);
    }

    private void insertBlock(Statements sql, NewBlock block) throws SQLException {
        ExecutionCost total = ExecutionCost.ZERO;
        for (NewTransaction tx : block.transactions()) {
            total = total.plus(tx.cost());
        }
        sql.update(WriteSql.INSERT_BLOCK, block.indexBlockHash(), block.blockHash(), block.height(),
                block.parentBlockHash(), block.parentIndexBlockHash(), block.parentMicroblockHash(),
                block.parentMicroblockSequence(), block.blockTime(), block.burnBlockTime(), block.burnBlockHash(),
                block.burnBlockHeight(), block.minerTxid(), block.transactions().size(), total.readCount(),
                total.readLength(), total.runtime(), total.writeCount(), total.writeLength());

        Map<String, Long> principalDeltas = new HashMap<>();
        Map<String, Long> logDeltas = new HashMap<>();
        for (NewTransaction tx : block.transactions()) {
            insertTransaction(sql, block, tx, principalDeltas, logDeltas);
        }
        sql.executeAllBatches();
        addCounts(sql, WriteSql.ADD_PRINCIPAL_COUNT, WriteSql.INSERT_PRINCIPAL_COUNT, principalDeltas);
        addCounts(sql, WriteSql.ADD_CONTRACT_LOG_COUNT, WriteSql.INSERT_CONTRACT_LOG_COUNT, logDeltas);
    }

    private void insertTransaction(Statements sql, NewBlock block, NewTransaction tx,
                                   Map<String, Long> principalDeltas, Map<String, Long> logDeltas)
            throws SQLException {
        TxFacts facts = decoder.decode(tx.rawTx());
        String microblockHash = tx.inMicroblock() ? tx.microblockHash() : "0x";
        int microblockSequence = tx.inMicroblock() ? tx.microblockSequence() : NewTransaction.ANCHOR_BLOCK_SEQUENCE;
        ExecutionCost cost = tx.cost();
        sql.addBatch(WriteSql.INSERT_TX, tx.txId(), block.indexBlockHash(), block.blockHash(), block.height(),
                block.blockTime(), block.burnBlockTime(), block.burnBlockHeight(), block.parentBurnBlockTime(),
                block.parentBlockHash(), block.parentIndexBlockHash(), tx.txIndex(), microblockHash,
                microblockSequence, facts.txType(), tx.status().apiName(), facts.nonce(), facts.fee(),
                facts.senderAddress(), facts.sponsored(), facts.sponsorAddress(), facts.sponsorNonce(),
                facts.contractId(), tx.rawTx(), tx.rawResult(), tx.events().size(), cost.readCount(),
                cost.readLength(), cost.runtime(), cost.writeCount(), cost.writeLength());

        int eventIndex = 0;
        for (NewEvent event : tx.events()) {
            insertEvent(sql, block, tx, microblockSequence, eventIndex++, event);
            if (event instanceof NewEvent.ContractLog log) {
                logDeltas.merge(log.contractId(), 1L, Long::sum);
            }
        }
        for (PrincipalActivity a : PrincipalActivity.derive(facts, tx.events())) {
            sql.addBatch(WriteSql.INSERT_PRINCIPAL_TX, a.principal(), tx.txId(), block.indexBlockHash(),
                    block.height(), microblockSequence, tx.txIndex(), a.stxSent(), a.stxReceived(),
                    a.stxTransfer(), a.stxMint(), a.stxBurn(), a.ftTransfer(), a.ftMint(), a.ftBurn(),
                    a.nftTransfer(), a.nftMint(), a.nftBurn());
            principalDeltas.merge(a.principal(), 1L, Long::sum);
        }
        if ("smart_contract".equals(facts.txType())) {
            sql.addBatch(WriteSql.INSERT_SMART_CONTRACT, facts.contractId(), tx.txId(), block.indexBlockHash(),
                    block.height(), microblockSequence, tx.txIndex(), tx.status().apiName(), tx.contractAbi());
        }
    }

    private static void insertEvent(Statements sql, NewBlock block, NewTransaction tx, int microblockSequence,
                                    int eventIndex, NewEvent event) throws SQLException {
        String contractId = null;
        String topic = null;
        String valueHex = null;
        String action = null;
        String assetId = null;
        String sender = null;
        String recipient = null;
        BigInteger amount = null;
        String memo = null;
        BigInteger lockedAmount = null;
        Long unlockHeight = null;
        String lockedAddress = null;
        if (event instanceof NewEvent.ContractLog log) {
            contractId = log.contractId();
            topic = log.topic();
            valueHex = log.valueHex();
        } else if (event instanceof NewEvent.StxAsset stx) {
            action = stx.action().apiName();
            sender = stx.sender();
            recipient = stx.recipient();
            amount = stx.amount();
            memo = stx.memo();
        } else if (event instanceof NewEvent.FungibleAsset ft) {
            action = ft.action().apiName();
            assetId = ft.assetId();
            sender = ft.sender();
            recipient = ft.recipient();
            amount = ft.amount();
        } else if (event instanceof NewEvent.NonFungibleAsset nft) {
            action = nft.action().apiName();
            assetId = nft.assetId();
            sender = nft.sender();
            recipient = nft.recipient();
            valueHex = nft.valueHex();
        } else if (event instanceof NewEvent.StxLock lock) {
            lockedAmount = lock.lockedAmount();
            unlockHeight = lock.unlockHeight();
            lockedAddress = lock.lockedAddress();
        }
        sql.addBatch(WriteSql.INSERT_EVENT, tx.txId(), block.indexBlockHash(), eventIndex, event.eventType(),
                block.height(), microblockSequence, tx.txIndex(), contractId, topic, valueHex, action, assetId,
                sender, recipient, amount, memo, lockedAmount, unlockHeight, lockedAddress);
    }

    /** Flips one block and everything hanging from it, adjusting the counters that count it. */
    private static void setCanonical(Statements sql, String indexBlockHash, boolean canonical) throws SQLException {
        long sign = canonical ? 1 : -1;
        Map<String, Long> principalDeltas = new HashMap<>();
        for (Object[] row : sql.query(WriteSql.PRINCIPAL_COUNTS_OF_BLOCK,
                rs -> new Object[]{rs.getString(1), rs.getLong(2)}, indexBlockHash, canonical)) {
            principalDeltas.put((String) row[0], sign * (Long) row[1]);
        }
        Map<String, Long> logDeltas = new HashMap<>();
        for (Object[] row : sql.query(WriteSql.CONTRACT_LOG_COUNTS_OF_BLOCK,
                rs -> new Object[]{rs.getString(1), rs.getLong(2)}, indexBlockHash, canonical)) {
            logDeltas.put((String) row[0], sign * (Long) row[1]);
        }
        for (String statement : List.of(WriteSql.SET_BLOCK_CANONICAL, WriteSql.SET_TXS_CANONICAL,
                WriteSql.SET_EVENTS_CANONICAL, WriteSql.SET_PRINCIPAL_TXS_CANONICAL,
                WriteSql.SET_CONTRACTS_CANONICAL)) {
            sql.update(statement, canonical, indexBlockHash);
        }
        addCounts(sql, WriteSql.ADD_PRINCIPAL_COUNT, WriteSql.INSERT_PRINCIPAL_COUNT, principalDeltas);
        addCounts(sql, WriteSql.ADD_CONTRACT_LOG_COUNT, WriteSql.INSERT_CONTRACT_LOG_COUNT, logDeltas);
    }

    /** UPDATE-then-INSERT upsert of counter rows keyed by one string. */
    private static void addCounts(Statements sql, String add, String insert, Map<String, Long> deltas)
            throws SQLException {
        if (deltas.isEmpty()) {
            return;
        }
        List<Map.Entry<String, Long>> entries = new ArrayList<>(deltas.entrySet());
        for (Map.Entry<String, Long> e : entries) {
            sql.addBatch(add, e.getValue(), e.getKey());
        }
        int[] updated = sql.executeBatch(add);
        for (int i = 0; i < entries.size(); i++) {
            // Drivers may report SUCCESS_NO_INFO (-2) for a batched row; only 0 means "no such row".
            if (updated[i] == 0) {
                sql.addBatch(insert, entries.get(i).getValue(), entries.get(i).getKey());
            }
        }
        sql.executeBatch(insert);
    }

    // --- mempool ------------------------------------------------------------------------------

    private boolean addMempoolTransaction(Statements sql, NewMempoolTransaction tx) throws SQLException {
        String txId = Sha512_256.txId(Hex.decode(tx.rawTx()));
        if (!sql.query(WriteSql.MEMPOOL_TX, rs -> Boolean.TRUE, txId).isEmpty()) {
            return false;
        }
        TxFacts facts = decoder.decode(tx.rawTx());
        sql.update(WriteSql.INSERT_MEMPOOL_TX, txId, tx.rawTx(), tx.receiptTime(), facts.txType(), facts.nonce(),
                facts.fee(), facts.senderAddress(), facts.sponsorAddress(), facts.contractId());
        if (sql.exists(WriteSql.CANONICAL_TX_EXISTS, txId)) {
            // Reported after it was mined (deliveries can interleave): keep it, but not as pending.
            sql.update(WriteSql.SET_MEMPOOL_STATE, true, "pending", txId);
            return true;
        }
        addMempoolPrincipals(sql, txId, tx.receiptTime(), facts);
        return true;
    }

    private void addMempoolPrincipals(Statements sql, String txId, long receiptTime, TxFacts facts)
            throws SQLException {
        Map<String, Long> deltas = new HashMap<>();
        for (String principal : facts.directPrincipals()) {
            sql.addBatch(WriteSql.INSERT_MEMPOOL_PRINCIPAL, principal, txId, receiptTime);
            deltas.put(principal, 1L);
        }
        sql.executeBatch(WriteSql.INSERT_MEMPOOL_PRINCIPAL);
        addCounts(sql, WriteSql.ADD_MEMPOOL_COUNT, WriteSql.INSERT_MEMPOOL_COUNT, deltas);
    }

    /**
     * Takes a pending transaction out of the mempool: mined ({@code droppedStatus} null, status kept)
     * or dropped. Returns false when it was not pending.
     */
    private static boolean removeFromMempool(Statements sql, String txId, String droppedStatus) throws SQLException {
        List<Boolean> pruned = sql.query(WriteSql.MEMPOOL_TX, rs -> rs.getBoolean(3), txId);
        if (pruned.isEmpty() || pruned.get(0)) {
            return false;
        }
        sql.update(WriteSql.SET_MEMPOOL_STATE, true, droppedStatus == null ? "pending" : droppedStatus, txId);
        Map<String, Long> deltas = new HashMap<>();
        for (String principal : sql.query(WriteSql.MEMPOOL_PRINCIPALS_OF_TX, rs -> rs.getString(1), txId)) {
            deltas.put(principal, -1L);
        }
        sql.update(WriteSql.DELETE_MEMPOOL_PRINCIPALS, txId);
        addCounts(sql, WriteSql.ADD_MEMPOOL_COUNT, WriteSql.INSERT_MEMPOOL_COUNT, deltas);
        return true;
    }

    /** A transaction only an orphaned branch had mined is pending again, if the mempool knew it. */
    private boolean returnToMempool(Statements sql, String txId) throws SQLException {
        List<Object[]> rows = sql.query(WriteSql.MEMPOOL_TX,
                rs -> new Object[]{rs.getString(1), rs.getLong(2), rs.getBoolean(3)}, txId);
        if (rows.isEmpty() || !(Boolean) rows.get(0)[2]) {
            return false;
        }
        sql.update(WriteSql.SET_MEMPOOL_STATE, false, "pending", txId);
        addMempoolPrincipals(sql, txId, (Long) rows.get(0)[1], decoder.decode((String) rows.get(0)[0]));
        return true;
    }

    // ------------------------------------------------------------------------------------------

    private record BlockRef(String indexBlockHash, String parentIndexBlockHash, long height, boolean canonical) {
    }

    private static BlockRef findBlock(Statements sql, String indexBlockHash) throws SQLException {
        List<BlockRef> rows = sql.query(WriteSql.BLOCK_BY_INDEX_HASH,
                rs -> new BlockRef(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getBoolean(4)),
                indexBlockHash);
        return rows.isEmpty() ? null : rows.get(0);
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Statements sql) throws SQLException;
    }

    private <T> T inTransaction(Work<T> work) {
        return transactions.executeWrite(status -> {
            try (Statements sql = new Statements(status.getConnection())) {
                return work.run(sql);
            } catch (SQLException e) {
                throw new StorageException("write failed: " + e.getMessage(), e);
            }
        });
    }
}
