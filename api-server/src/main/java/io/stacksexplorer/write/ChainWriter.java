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
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * <p>Fork choice as the peer applies the node's announcements: a block higher than the tip becomes
 * the tip; its ancestors become canonical and every other canonical block above the fork point
 * becomes non-canonical, together with everything hanging from it and the counters that count it.
 * A block at or below the tip's height (a sibling) is stored non-canonical until a descendant
 * makes its fork the longer one. (mainnet-reorg-scenario1's peer answers show this rule.)
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
        return writeBlock(block, PoxUnlockHeights.NONE, null);
    }

    /**
     * Writes one anchored block as the node delivered it, with its raw payload, in one database
     * transaction. A payload or block already stored is acknowledged and ignored.
     */
    public BlockWriteResult writeBlock(NewBlock block, PoxUnlockHeights pox, RawPayload raw) {
        return inTransaction(sql -> {
            if (!storeRaw(sql, raw)) {
                return BlockWriteResult.unchanged();
            }
            BlockWriteResult result = writeBlock(sql, block);
            if (!result.alreadyStored() && (pox.v1() != null || pox.v2() != null || pox.v3() != null)) {
                sql.update(WriteSql.SET_POX_UNLOCK_HEIGHTS, pox.v1(), pox.v2(), pox.v3());
            }
            return result;
        });
    }

    /**
     * Writes microblock transactions as unanchored rows on top of their parent block. Microblocks an
     * anchor block already confirmed are ignored; microblocks whose parent block is not stored yet
     * are kept (raw) and derived when it arrives (see {@link #deferredMicroblocks}).
     *
     * @return the number of unanchored transactions written
     */
    public int writeMicroblocks(NewMicroblocks micro, RawPayload raw) {
        return inTransaction(sql -> {
            if (!storeRaw(sql, raw)) {
                return 0;
            }
            BlockRef parent = findBlock(sql, micro.parentIndexBlockHash());
            if (parent == null) {
                if (raw != null) {
                    sql.update(WriteSql.SET_DEFERRED, micro.parentIndexBlockHash(), rawId(sql, raw));
                }
                return 0;
            }
            if (raw != null && raw.storedId() != null) {
                sql.update(WriteSql.SET_DEFERRED, null, raw.storedId());
            }
            List<Object[]> tip = sql.query(WriteSql.TIP, rs -> new Object[]{rs.getObject(1), rs.getString(2)});
            boolean onTip = parent.indexBlockHash().equals(tip.get(0)[1]);
            Map<String, Long> principalDeltas = new HashMap<>();
            Map<String, Long> logDeltas = new HashMap<>();
            int written = 0;
            String lastHash = null;
            int lastSequence = -1;
            boolean mempoolChanged = false;
            for (NewTransaction tx : micro.transactions()) {
                if (sql.exists(WriteSql.MICROBLOCK_CONFIRMED, tx.microblockHash())
                        || sql.exists(WriteSql.TX_ROW_EXISTS, tx.txId(), tx.microblockHash())) {
                    continue;
                }
                Placement at = new Placement(tx.microblockHash(), "0x", parent.height() + 1, micro.receiptTime(), -1,
                        -1, micro.parentBurnBlockTime(), parent.blockHash(), parent.indexBlockHash(), true,
                        true, onTip);
                insertTransaction(sql, at, tx, principalDeltas, logDeltas);
                written++;
                if (onTip) {
                    mempoolChanged |= removeFromMempool(sql, tx.txId(), null);
                    if (tx.microblockSequence() > lastSequence) {
                        lastSequence = tx.microblockSequence();
                        lastHash = tx.microblockHash();
                    }
                }
            }
            sql.executeAllBatches();
            addCounts(sql, WriteSql.ADD_PRINCIPAL_COUNT, WriteSql.INSERT_PRINCIPAL_COUNT, principalDeltas);
            addCounts(sql, WriteSql.ADD_CONTRACT_LOG_COUNT, WriteSql.INSERT_CONTRACT_LOG_COUNT, logDeltas);
            if (lastHash != null) {
                sql.update(WriteSql.SET_TIP_MICROBLOCK, lastHash, lastSequence, parent.indexBlockHash(), lastSequence);
            }
            if (mempoolChanged) {
                sql.update(WriteSql.BUMP_MEMPOOL_VERSION);
            }
            return written;
        });
    }

    /** Adds mempool transactions the node reported, with the raw payload, in one database transaction. */
    public int addMempoolTransactions(List<NewMempoolTransaction> txs, RawPayload raw) {
        return inTransaction(sql -> storeRaw(sql, raw) ? addMempool(sql, txs) : 0);
    }

    /** Drops mempool transactions the node reported, with the raw payload, in one database transaction. */
    public int dropMempoolTransactions(Collection<String> txIds, String droppedStatus, RawPayload raw) {
        return inTransaction(sql -> storeRaw(sql, raw) ? dropMempool(sql, txIds, droppedStatus) : 0);
    }

    /** Keeps a payload nothing is derived from (burn blocks, attachments, …); false when seen before. */
    public boolean storePayload(RawPayload raw) {
        return inTransaction(sql -> storeRaw(sql, raw));
    }

    /** Microblock payloads kept until their parent block {@code indexBlockHash} arrived, in arrival order. */
    public List<StoredPayload> deferredMicroblocks(String indexBlockHash) {
        return inTransaction(sql -> sql.query(WriteSql.DEFERRED_OF, ChainWriter::storedPayload, indexBlockHash));
    }

    /** Stored payloads after {@code afterId}, in arrival order, a page at a time. */
    public List<StoredPayload> storedPayloads(long afterId) {
        return inTransaction(sql -> sql.query(WriteSql.NODE_EVENTS_AFTER, ChainWriter::storedPayload, afterId));
    }

    public long countStoredPayloads() {
        return inTransaction(sql -> sql.query(WriteSql.COUNT_NODE_EVENTS, rs -> rs.getLong(1)).get(0));
    }

    /** Empties every derived table (before a rebuild from the stored payloads). */
    public void clearDerived() {
        inTransaction(sql -> {
            for (String statement : WriteSql.CLEAR_DERIVED) {
                sql.update(statement);
            }
            return null;
        });
    }

    /** Adds transactions the node reported entering its mempool; known ones are ignored. */
    public int addMempoolTransactions(List<NewMempoolTransaction> txs) {
        return inTransaction(sql -> addMempool(sql, txs));
    }

    /**
     * Marks pending transactions as dropped with the node's reason, e.g.
     * {@code dropped_replace_by_fee}. Unknown or no longer pending ids are ignored.
     */
    public int dropMempoolTransactions(Collection<String> txIds, String droppedStatus) {
        return inTransaction(sql -> dropMempool(sql, txIds, droppedStatus));
    }

    /** Whether any block has been written (the demo chain is only generated into an empty database). */
    public boolean hasBlocks() {
        return inTransaction(sql -> sql.exists(WriteSql.ANY_BLOCK));
    }

    // ------------------------------------------------------------------------------------------

    private int addMempool(Statements sql, List<NewMempoolTransaction> txs) throws SQLException {
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
    }

    private int dropMempool(Statements sql, Collection<String> txIds, String droppedStatus) throws SQLException {
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
    }

    /** Stores a new raw payload; false when the same payload was stored before (nothing to derive). */
    private static boolean storeRaw(Statements sql, RawPayload raw) throws SQLException {
        if (raw == null || raw.storedId() != null) {
            return true;
        }
        String hash = raw.payloadHash();
        if (sql.exists(WriteSql.NODE_EVENT_EXISTS, hash)) {
            return false;
        }
        sql.update(WriteSql.INSERT_NODE_EVENT, raw.receivedAt(), raw.path(), hash, raw.body());
        return true;
    }

    private static long rawId(Statements sql, RawPayload raw) throws SQLException {
        return raw.storedId() != null ? raw.storedId()
                : sql.query(WriteSql.NODE_EVENT_ID, rs -> rs.getLong(1), raw.payloadHash()).get(0);
    }

    private static StoredPayload storedPayload(java.sql.ResultSet rs) throws SQLException {
        return new StoredPayload(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4));
    }

    private BlockWriteResult writeBlock(Statements sql, NewBlock block) throws SQLException {
        if (findBlock(sql, block.indexBlockHash()) != null) {
            return BlockWriteResult.unchanged();
        }
        List<Long> tipHeight = sql.query(WriteSql.TIP, rs -> (Long) rs.getObject(1, Long.class));
        if (!tipHeight.isEmpty() && tipHeight.get(0) != null && block.height() <= tipHeight.get(0)) {
            // A sibling of the tip or a lower block: stored, not canonical, nothing else changes.
            insertBlock(sql, block, false);
            return new BlockWriteResult(false, List.of(), List.of());
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

        Map<String, String> leftChain = new LinkedHashMap<>();
        for (String hash : orphaned) {
            for (String txId : sql.query(WriteSql.TX_IDS_OF_BLOCK, rs -> rs.getString(1), hash)) {
                leftChain.putIfAbsent(txId, hash);
            }
            setCanonical(sql, hash, false);
        }
        Set<String> rejoined = new LinkedHashSet<>();
        for (String hash : restored) {
            rejoined.addAll(sql.query(WriteSql.TX_IDS_OF_BLOCK, rs -> rs.getString(1), hash));
            setCanonical(sql, hash, true);
        }

        insertBlock(sql, block, true);
        settleUnanchored(sql, block);
        for (NewTransaction tx : block.transactions()) {
            rejoined.add(tx.txId());
        }

        // Mempool: what is mined now leaves it; what only the orphaned branch had mined returns.
        boolean mempoolChanged = false;
        for (String txId : rejoined) {
            mempoolChanged |= removeFromMempool(sql, txId, null);
        }
        for (Map.Entry<String, String> left : leftChain.entrySet()) {
            String txId = left.getKey();
            if (!rejoined.contains(txId) && !sql.exists(WriteSql.CANONICAL_TX_EXISTS, txId)) {
                mempoolChanged |= returnToMempool(sql, txId, left.getValue());
            }
        }
        if (mempoolChanged) {
            sql.update(WriteSql.BUMP_MEMPOOL_VERSION);
        }
        sql.update(WriteSql.SET_TIP, block.height(), block.blockHash(), block.indexBlockHash(),
                block.burnBlockHeight());
        return new BlockWriteResult(false, orphaned, restored);
    }

    /**
     * A new canonical anchor block settles the unanchored microblock rows below it: the ones it
     * confirms are replaced by its own rows, the others become non-canonical microblocks.
     */
    private static void settleUnanchored(Statements sql, NewBlock block) throws SQLException {
        Set<String> confirmed = new HashSet<>();
        for (NewTransaction tx : block.transactions()) {
            if (tx.inMicroblock()) {
                confirmed.add(tx.microblockHash());
            }
        }
        List<Object[]> keys = sql.query(WriteSql.UNANCHORED_KEYS_UP_TO,
                rs -> new Object[]{rs.getString(1), rs.getBoolean(2)}, block.height());
        for (Object[] key : keys) {
            String hash = (String) key[0];
            boolean counted = (Boolean) key[1];
            if (counted) {
                shiftCounters(sql, hash, false);
            }
            if (confirmed.contains(hash)) {
                for (String statement : List.of(WriteSql.DELETE_EVENTS_OF, WriteSql.DELETE_PRINCIPAL_TXS_OF,
                        WriteSql.DELETE_CONTRACTS_OF, WriteSql.DELETE_TXS_OF)) {
                    sql.update(statement, hash);
                }
            } else if (counted) {
                for (String statement : List.of(WriteSql.SET_TXS_MICROBLOCK_CANONICAL,
                        WriteSql.SET_EVENTS_MICROBLOCK_CANONICAL, WriteSql.SET_PRINCIPAL_TXS_MICROBLOCK_CANONICAL,
                        WriteSql.SET_CONTRACTS_MICROBLOCK_CANONICAL)) {
                    sql.update(statement, false, hash);
                }
            }
        }
    }

    /** Where a transaction row goes: an anchored block, or an unanchored microblock on top of one. */
    private record Placement(String indexBlockHash, String blockHash, long height, long blockTime, long burnBlockTime,
                             long burnBlockHeight, long parentBurnBlockTime, String parentBlockHash,
                             String parentIndexBlockHash, boolean unanchored, boolean canonical,
                             boolean microblockCanonical) {

        static Placement of(NewBlock block, boolean canonical) {
            return new Placement(block.indexBlockHash(), block.blockHash(), block.height(), block.blockTime(),
                    block.burnBlockTime(), block.burnBlockHeight(), block.parentBurnBlockTime(),
                    block.parentBlockHash(), block.parentIndexBlockHash(), false, canonical, true);
        }

        boolean counted() {
            return canonical && microblockCanonical;
        }
    }

    private void insertBlock(Statements sql, NewBlock block, boolean canonical) throws SQLException {
        ExecutionCost total = ExecutionCost.ZERO;
        for (NewTransaction tx : block.transactions()) {
            total = total.plus(tx.cost());
        }
        sql.update(WriteSql.INSERT_BLOCK, block.indexBlockHash(), block.blockHash(), block.height(),
                block.parentBlockHash(), block.parentIndexBlockHash(), block.parentMicroblockHash(),
                block.parentMicroblockSequence(), block.blockTime(), block.burnBlockTime(), block.burnBlockHash(),
                block.burnBlockHeight(), block.minerTxid(), block.transactions().size(), total.readCount(),
                total.readLength(), total.runtime(), total.writeCount(), total.writeLength(), canonical);

        Map<String, Long> principalDeltas = new HashMap<>();
        Map<String, Long> logDeltas = new HashMap<>();
        Placement at = Placement.of(block, canonical);
        for (NewTransaction tx : block.transactions()) {
            insertTransaction(sql, at, tx, principalDeltas, logDeltas);
        }
        sql.executeAllBatches();
        addCounts(sql, WriteSql.ADD_PRINCIPAL_COUNT, WriteSql.INSERT_PRINCIPAL_COUNT, principalDeltas);
        addCounts(sql, WriteSql.ADD_CONTRACT_LOG_COUNT, WriteSql.INSERT_CONTRACT_LOG_COUNT, logDeltas);
    }

    private void insertTransaction(Statements sql, Placement at, NewTransaction tx,
                                   Map<String, Long> principalDeltas, Map<String, Long> logDeltas)
            throws SQLException {
        TxFacts facts = decoder.decode(tx.rawTx());
        String microblockHash = tx.inMicroblock() ? tx.microblockHash() : "0x";
        int microblockSequence = tx.inMicroblock() ? tx.microblockSequence() : NewTransaction.ANCHOR_BLOCK_SEQUENCE;
        ExecutionCost cost = tx.cost();
        sql.addBatch(WriteSql.INSERT_TX, tx.txId(), at.indexBlockHash(), at.blockHash(), at.height(),
                at.blockTime(), at.burnBlockTime(), at.burnBlockHeight(), at.parentBurnBlockTime(),
                at.parentBlockHash(), at.parentIndexBlockHash(), tx.txIndex(), microblockHash,
                microblockSequence, at.unanchored(), at.canonical(), at.microblockCanonical(), facts.txType(),
                tx.status().apiName(), facts.nonce(), facts.fee(),
                facts.senderAddress(), facts.sponsored(), facts.sponsorAddress(), facts.sponsorNonce(),
                facts.contractId(), tx.rawTx(), tx.rawResult(), tx.events().size(), cost.readCount(),
                cost.readLength(), cost.runtime(), cost.writeCount(), cost.writeLength());

        int eventIndex = 0;
        for (NewEvent event : tx.events()) {
            insertEvent(sql, at, tx, microblockSequence, eventIndex++, event);
            if (event instanceof NewEvent.ContractLog log && at.counted()) {
                logDeltas.merge(log.contractId(), 1L, Long::sum);
            }
        }
        for (PrincipalActivity a : PrincipalActivity.derive(facts, tx.events())) {
            sql.addBatch(WriteSql.INSERT_PRINCIPAL_TX, a.principal(), tx.txId(), at.indexBlockHash(),
                    at.height(), microblockSequence, tx.txIndex(), at.canonical(), at.microblockCanonical(),
                    a.stxSent(), a.stxReceived(),
                    a.stxTransfer(), a.stxMint(), a.stxBurn(), a.ftTransfer(), a.ftMint(), a.ftBurn(),
                    a.nftTransfer(), a.nftMint(), a.nftBurn());
            if (at.counted()) {
                principalDeltas.merge(a.principal(), 1L, Long::sum);
            }
        }
        if ("smart_contract".equals(facts.txType())) {
            sql.addBatch(WriteSql.INSERT_SMART_CONTRACT, facts.contractId(), tx.txId(), at.indexBlockHash(),
                    at.height(), microblockSequence, tx.txIndex(), at.canonical(), at.microblockCanonical(),
                    tx.status().apiName(), tx.contractAbi());
        }
    }

    private static void insertEvent(Statements sql, Placement at, NewTransaction tx, int microblockSequence,
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
        sql.addBatch(WriteSql.INSERT_EVENT, tx.txId(), at.indexBlockHash(), eventIndex, event.eventType(),
                at.height(), microblockSequence, tx.txIndex(), at.canonical(), at.microblockCanonical(),
                at.unanchored(), contractId, topic, valueHex, action, assetId,
                sender, recipient, amount, memo, lockedAmount, unlockHeight, lockedAddress);
    }

    /** Flips one block and everything hanging from it, adjusting the counters that count it. */
    private static void setCanonical(Statements sql, String indexBlockHash, boolean canonical) throws SQLException {
        shiftCounters(sql, indexBlockHash, canonical);
        for (String statement : List.of(WriteSql.SET_BLOCK_CANONICAL, WriteSql.SET_TXS_CANONICAL,
                WriteSql.SET_EVENTS_CANONICAL, WriteSql.SET_PRINCIPAL_TXS_CANONICAL,
                WriteSql.SET_CONTRACTS_CANONICAL)) {
            sql.update(statement, canonical, indexBlockHash);
        }
    }

    /**
     * Moves the counters for one block's (or microblock stream's) rows that are about to become
     * canonical (added) or stop being so (subtracted); rows already in that state are not counted
     * twice. Call before the flags change.
     */
    private static void shiftCounters(Statements sql, String indexBlockHash, boolean canonical) throws SQLException {
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

    /**
     * A transaction only an orphaned branch had mined is pending again. As the peer does, a
     * transaction the mempool never saw (e.g. the orphaned block's coinbase) enters it, received at
     * the orphaned block's time.
     */
    private boolean returnToMempool(Statements sql, String txId, String orphanedBlock) throws SQLException {
        List<Object[]> rows = sql.query(WriteSql.MEMPOOL_TX,
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
            sql.update(WriteSql.INSERT_MEMPOOL_TX, txId, rawTx, receiptTime, facts.txType(), facts.nonce(),
                    facts.fee(), facts.senderAddress(), facts.sponsorAddress(), facts.contractId());
            addMempoolPrincipals(sql, txId, receiptTime, facts);
            return true;
        }
        if (!(Boolean) rows.get(0)[2]) {
            return false;
        }
        sql.update(WriteSql.SET_MEMPOOL_STATE, false, "pending", txId);
        addMempoolPrincipals(sql, txId, (Long) rows.get(0)[1], decoder.decode((String) rows.get(0)[0]));
        return true;
    }

    // ------------------------------------------------------------------------------------------

    private record BlockRef(String indexBlockHash, String parentIndexBlockHash, long height, boolean canonical,
                            String blockHash, long blockTime) {
    }

    private static BlockRef findBlock(Statements sql, String indexBlockHash) throws SQLException {
        List<BlockRef> rows = sql.query(WriteSql.BLOCK_BY_INDEX_HASH,
                rs -> new BlockRef(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getBoolean(4),
                        rs.getString(5), rs.getLong(6)),
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
