package io.stacksexplorer.write;

import java.math.BigInteger;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rows one mined transaction becomes, wherever it was mined (anchor block or microblock):
 * the transaction, its events, one history row per principal it involves, and a deployment row.
 */
final class ChainRows {

    /** Where a transaction row goes: an anchored block, or an unanchored microblock on top of one. */
    record Placement(String indexBlockHash, String blockHash, long height, long blockTime, long burnBlockTime,
                     long burnBlockHeight, long parentBurnBlockTime, String parentBlockHash,
                     String parentIndexBlockHash, boolean unanchored, boolean canonical,
                     boolean microblockCanonical) {

        static Placement of(NewBlock block, boolean canonical) {
            return new Placement(block.indexBlockHash(), block.blockHash(), block.height(), block.blockTime(),
                    block.burnBlockTime(), block.burnBlockHeight(), block.parentBurnBlockTime(),
                    block.parentBlockHash(), block.parentIndexBlockHash(), false, canonical, true);
        }

        /** The same place at another time (a confirmed microblock transaction keeps its arrival time). */
        Placement at(long time) {
            return time == blockTime ? this : new Placement(indexBlockHash, blockHash, height, time, burnBlockTime,
                    burnBlockHeight, parentBurnBlockTime, parentBlockHash, parentIndexBlockHash, unanchored, canonical,
                    microblockCanonical);
        }

        /** Rows the API serves, and so the counters count. */
        boolean counted() {
            return canonical && microblockCanonical;
        }
    }

    /** A stored block, as fork choice needs it. */
    record BlockRef(String indexBlockHash, String parentIndexBlockHash, long height, boolean canonical,
                    String blockHash, long blockTime) {
    }

    private final TxDecoder decoder;

    ChainRows(TxDecoder decoder) {
        this.decoder = decoder;
    }

    static BlockRef findBlock(Statements sql, String indexBlockHash) throws SQLException {
        if (sql.announcements().knownAbsentBlock(indexBlockHash)) {
            return null;
        }
        List<BlockRef> rows = sql.query(WriteSql.BLOCK_BY_INDEX_HASH,
                rs -> new BlockRef(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getBoolean(4),
                        rs.getString(5), rs.getLong(6)),
                indexBlockHash);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** A transaction decoded, with the principals it involves: what its rows are made of. */
    record Derived(NewTransaction tx, TxFacts facts, List<PrincipalActivity> activities) {
    }

    Derived derive(NewTransaction tx) {
        TxFacts facts = decoder.factsOf(tx.rawTx(), tx.facts());
        return new Derived(tx, facts, PrincipalActivity.derive(facts, tx.status(), tx.events()));
    }

    /**
     * Loads, in bulk, the counters the served rows of {@code txs} will be numbered from (one query
     * per chunk of principals instead of one per principal).
     */
    static void preloadPositions(Positions positions, List<Derived> txs) throws SQLException {
        Set<String> principals = new HashSet<>();
        Set<String> contracts = new HashSet<>();
        for (Derived d : txs) {
            for (PrincipalActivity a : d.activities()) {
                principals.add(a.principal());
            }
            for (NewEvent event : d.tx().events()) {
                if (event instanceof NewEvent.ContractLog log) {
                    contracts.add(log.contractId());
                }
            }
        }
        positions.preload(Positions.Kind.HISTORY, principals);
        positions.preload(Positions.Kind.LOGS, contracts);
    }

    void insertTransaction(Statements sql, Placement at, NewTransaction tx, Positions positions, boolean append)
            throws SQLException {
        insertTransaction(sql, at, derive(tx), positions, append);
    }

    /**
     * Queues the rows of one transaction (batched; the caller executes the batches). Served rows get
     * the next positions when {@code append} (a canonical block on the tip); otherwise none, and
     * their lists are marked for renumbering from this height (the rows just queued name them, so
     * nothing is read back).
     */
    void insertTransaction(Statements sql, Placement at, Derived derived, Positions positions, boolean append)
            throws SQLException {
        NewTransaction tx = derived.tx();
        TxFacts facts = derived.facts();
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
                cost.readLength(), cost.runtime(), cost.writeCount(), cost.writeLength(), tx.vmError());
        if (at.counted()) {
            sql.announcements().queuedCanonicalTx(tx.txId());
        }

        int eventIndex = 0;
        for (NewEvent event : tx.events()) {
            Long position = event instanceof NewEvent.ContractLog log
                    ? position(positions, at, append, Positions.Kind.LOGS, log.contractId()) : null;
            insertEvent(sql, at, tx, microblockSequence, eventIndex++, event, position);
        }
        for (PrincipalActivity a : derived.activities()) {
            sql.addBatch(WriteSql.INSERT_PRINCIPAL_TX, a.principal(), tx.txId(), at.indexBlockHash(),
                    at.height(), microblockSequence, tx.txIndex(), at.canonical(), at.microblockCanonical(),
                    a.stxSent(), a.stxReceived(),
                    a.stxTransfer(), a.stxMint(), a.stxBurn(), a.ftTransfer(), a.ftMint(), a.ftBurn(),
                    a.nftTransfer(), a.nftMint(), a.nftBurn(),
                    position(positions, at, append, Positions.Kind.HISTORY, a.principal()));
        }
        if ("smart_contract".equals(facts.txType())) {
            sql.addBatch(WriteSql.INSERT_SMART_CONTRACT, facts.contractId(), tx.txId(), at.indexBlockHash(),
                    at.height(), microblockSequence, tx.txIndex(), at.canonical(), at.microblockCanonical(),
                    tx.status().apiName(), tx.contractAbi());
        }
    }

    /**
     * The position of a row in list {@code key}: the next one when appended, none for rows not
     * served; a served row that is not appended (a microblock stream) marks its list instead.
     */
    private static Long position(Positions positions, Placement at, boolean append, Positions.Kind kind,
                                 String key) throws SQLException {
        if (!at.counted()) {
            return null;
        }
        if (append) {
            return positions.next(kind, key);
        }
        positions.dirty(kind, key, at.height(), at.indexBlockHash());
        return null;
    }

    private static void insertEvent(Statements sql, Placement at, NewTransaction tx, int microblockSequence,
                                    int eventIndex, NewEvent event, Long logPosition) throws SQLException {
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
                sender, recipient, amount, memo, lockedAmount, unlockHeight, lockedAddress, logPosition);
    }
}
