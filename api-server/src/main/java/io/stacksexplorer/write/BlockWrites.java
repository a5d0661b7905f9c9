package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Anchored blocks: fork choice as the peer applies the node's announcements. A block higher than
 * the tip becomes the tip (see {@link Reorgs}); a block at or below the tip's height (a sibling)
 * is stored non-canonical until a descendant makes its fork the longer one.
 * (mainnet-reorg-scenario1's peer answers show this rule.)
 */
final class BlockWrites {

    private final ChainRows rows;
    private final MempoolWrites mempool;

    BlockWrites(ChainRows rows, MempoolWrites mempool) {
        this.rows = rows;
        this.mempool = mempool;
    }

    /**
     * Whether the block can be placed: its parent is stored (canonical or not), or it is block 1
     * (its parent, the genesis block, is written as part of it), or the database holds no block yet
     * (a log that starts above genesis). A block of a chain that extends the tip is answered
     * without a query.
     */
    private static boolean parentKnown(Statements sql, NewBlock block) throws SQLException {
        if (block.height() <= 1) {
            return true;
        }
        Statements.Tip tip = sql.tip();
        if (tip.height() == null || block.parentIndexBlockHash().equals(tip.indexBlockHash())) {
            return true;
        }
        return ChainRows.findBlock(sql, block.parentIndexBlockHash()) != null;
    }

    /**
     * @param needsParent true for a block the node delivered: one whose parent is not stored is not
     *                    written ({@link BlockWriteResult#waiting}); blocks written by the application
     *                    itself (the demo chain) come in order
     */
    BlockWriteResult write(Statements sql, NewBlock block, boolean needsParent) throws SQLException {
        if (ChainRows.findBlock(sql, block.indexBlockHash()) != null) {
            return BlockWriteResult.unchanged();
        }
        if (needsParent && !parentKnown(sql, block)) {
            return BlockWriteResult.waiting();
        }
        Statements.Tip tip = sql.tip();
        if (tip.height() != null && block.height() <= tip.height()) {
            // A sibling of the tip or a lower block: stored, not canonical, nothing else changes.
            insert(sql, block, false, sql.positions(), Map.of());
            return new BlockWriteResult(false, List.of(), List.of());
        }
        // Everything that changes the served set below the new block first, renumbered, so that
        // the new block's rows append on top.
        Positions positions = sql.positions();
        Reorgs.ForkSwitch fork = Reorgs.switchTo(sql, block, positions, tip.indexBlockHash());
        Map<String, Microblocks.UnanchoredPlace> unanchored = Microblocks.settleUnanchored(sql, block, positions);
        positions.renumber();
        List<ChainRows.Derived> derived = insert(sql, block, true, positions, unanchored);
        // Mined on the canonical chain now: what the fork switch rejoined, and this block's own
        // transactions (with their decoded facts).
        Map<String, TxFacts> mined = new LinkedHashMap<>();
        Map<String, TxFacts> spendingNonces = new LinkedHashMap<>();
        for (String txId : fork.rejoined()) {
            mined.put(txId, null);
            spendingNonces.put(txId, null);
        }
        for (ChainRows.Derived tx : derived) {
            mined.put(tx.tx().txId(), tx.facts());
            // Skipped as problematic (epoch 4.0): the node left the sender's nonce untouched.
            if (tx.tx().status() != TxOutcome.PROBLEMATIC_SKIPPED && MempoolReplacement.spendsANonce(tx.tx().rawTx())) {
                spendingNonces.put(tx.tx().txId(), tx.facts());
            }
        }

        // Mempool: what is mined now leaves it; what only the orphaned branch had mined returns.
        boolean mempoolChanged = false;
        mempoolChanged |= MempoolWrites.removeMined(sql, mined);
        mempoolChanged |= MempoolReplacement.afterMined(sql, spendingNonces, mempool.decoder());
        for (Map.Entry<String, String> left : fork.leftChain().entrySet()) {
            String txId = left.getKey();
            if (!mined.containsKey(txId) && !sql.exists(WriteSql.CANONICAL_TX_EXISTS, txId)) {
                mempoolChanged |= mempool.returnFromOrphan(sql, txId, left.getValue(), block.height());
            }
        }
        mempoolChanged |= mempool.collectGarbage(sql, block.height());
        if (mempoolChanged) {
            sql.mempool().changed();
        }
        // Queued like the rows, and only the last block's: a replay's consecutive blocks move the tip
        // once, at the end of the database transaction (or before the next statement that names
        // chain_state).
        sql.addOverwritingBatch(WriteSql.SET_TIP, block.height(), block.blockHash(), block.indexBlockHash(),
                block.burnBlockHeight());
        sql.tipMovedTo(block.height(), block.indexBlockHash());
        return new BlockWriteResult(false, fork.orphaned(), fork.restored());
    }

    private static int sequenceOf(NewTransaction tx) {
        return tx.inMicroblock() ? tx.microblockSequence() : NewTransaction.ANCHOR_BLOCK_SEQUENCE;
    }

    /** Writes the block and its rows; returns its transactions as decoded, in chain order. */
    private List<ChainRows.Derived> insert(Statements sql, NewBlock block, boolean canonical, Positions positions,
                                           Map<String, Microblocks.UnanchoredPlace> unanchored) throws SQLException {
        ExecutionCost total = ExecutionCost.ZERO;
        for (NewTransaction tx : block.transactions()) {
            total = total.plus(tx.cost());
        }
        // Queued like the rows (one COPY per batch of blocks on PostgreSQL): a statement that reads
        // blocks sends it first.
        sql.addBatch(WriteSql.INSERT_BLOCK, block.indexBlockHash(), block.blockHash(), block.height(),
                block.parentBlockHash(), block.parentIndexBlockHash(), block.parentMicroblockHash(),
                block.parentMicroblockSequence(), block.blockTime(), block.burnBlockTime(), block.burnBlockHash(),
                block.burnBlockHeight(), block.minerTxid(), block.txCount(), total.readCount(),
                total.readLength(), total.runtime(), total.writeCount(), total.writeLength(), canonical,
                block.tenureHeight());
        sql.announcements().blockWritten(block.indexBlockHash());
        for (HeldTransaction held : block.held()) {
            sql.addBatch(WriteSql.INSERT_HELD_TX, held.txId(), block.indexBlockHash(), block.height(), held.txIndex(),
                    held.status(), held.reason(), held.byteOffset());
        }

        ChainRows.Placement at = ChainRows.Placement.of(block, canonical);
        // Chain order within the block, so that appended positions follow it.
        List<NewTransaction> ordered = new ArrayList<>(block.transactions().size());
        Map<String, Long> arrivedAt = new java.util.HashMap<>();
        for (NewTransaction tx : block.transactions()) {
            Microblocks.UnanchoredPlace place = tx.inMicroblock()
                    ? unanchored.get(Microblocks.UnanchoredPlace.key(tx.microblockHash(), tx.txId())) : null;
            if (place == null) {
                ordered.add(tx);
            } else {
                ordered.add(tx.atIndex(place.txIndex()));
                arrivedAt.put(tx.txId(), place.blockTime());
            }
        }
        ordered.sort(Comparator.comparingInt(BlockWrites::sequenceOf).thenComparingInt(NewTransaction::txIndex));
        List<ChainRows.Derived> derived = new ArrayList<>(ordered.size());
        for (NewTransaction tx : ordered) {
            derived.add(rows.derive(tx));
        }
        if (canonical) {
            ChainRows.preloadPositions(positions, derived);
        }
        for (ChainRows.Derived tx : derived) {
            Long arrival = arrivedAt.get(tx.tx().txId());
            rows.insertTransaction(sql, arrival == null ? at : at.at(arrival), tx, positions, true);
        }
        // The rows stay queued: they go to the database with the next statement that reads their
        // tables, or at the end of the database transaction (Statements).
        return derived;
    }
}
