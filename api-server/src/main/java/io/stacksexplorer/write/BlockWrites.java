package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
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

    BlockWriteResult write(Statements sql, NewBlock block) throws SQLException {
        if (ChainRows.findBlock(sql, block.indexBlockHash()) != null) {
            return BlockWriteResult.unchanged();
        }
        List<Long> tipHeight = sql.query(WriteSql.TIP, rs -> (Long) rs.getObject(1, Long.class));
        if (!tipHeight.isEmpty() && tipHeight.get(0) != null && block.height() <= tipHeight.get(0)) {
            // A sibling of the tip or a lower block: stored, not canonical, nothing else changes.
            insert(sql, block, false, sql.positions());
            return new BlockWriteResult(false, List.of(), List.of());
        }
        // Everything that changes the served set below the new block first, renumbered, so that
        // the new block's rows append on top.
        Positions positions = sql.positions();
        Reorgs.ForkSwitch fork = Reorgs.switchTo(sql, block, positions);
        Microblocks.settleUnanchored(sql, block, positions);
        positions.renumber();
        insert(sql, block, true, positions);
        for (NewTransaction tx : block.transactions()) {
            fork.rejoined().add(tx.txId());
        }

        // Mempool: what is mined now leaves it; what only the orphaned branch had mined returns.
        boolean mempoolChanged = false;
        mempoolChanged |= MempoolWrites.removeMined(sql, fork.rejoined());
        for (Map.Entry<String, String> left : fork.leftChain().entrySet()) {
            String txId = left.getKey();
            if (!fork.rejoined().contains(txId) && !sql.exists(WriteSql.CANONICAL_TX_EXISTS, txId)) {
                mempoolChanged |= mempool.returnFromOrphan(sql, txId, left.getValue());
            }
        }
        if (mempoolChanged) {
            sql.update(WriteSql.BUMP_MEMPOOL_VERSION);
        }
        sql.update(WriteSql.SET_TIP, block.height(), block.blockHash(), block.indexBlockHash(),
                block.burnBlockHeight());
        return new BlockWriteResult(false, fork.orphaned(), fork.restored());
    }

    private static int sequenceOf(NewTransaction tx) {
        return tx.inMicroblock() ? tx.microblockSequence() : NewTransaction.ANCHOR_BLOCK_SEQUENCE;
    }

    private void insert(Statements sql, NewBlock block, boolean canonical, Positions positions) throws SQLException {
        ExecutionCost total = ExecutionCost.ZERO;
        for (NewTransaction tx : block.transactions()) {
            total = total.plus(tx.cost());
        }
        sql.update(WriteSql.INSERT_BLOCK, block.indexBlockHash(), block.blockHash(), block.height(),
                block.parentBlockHash(), block.parentIndexBlockHash(), block.parentMicroblockHash(),
                block.parentMicroblockSequence(), block.blockTime(), block.burnBlockTime(), block.burnBlockHash(),
                block.burnBlockHeight(), block.minerTxid(), block.transactions().size(), total.readCount(),
                total.readLength(), total.runtime(), total.writeCount(), total.writeLength(), canonical);

        ChainRows.Placement at = ChainRows.Placement.of(block, canonical);
        // Chain order within the block, so that appended positions follow it.
        List<NewTransaction> ordered = new ArrayList<>(block.transactions());
        ordered.sort(Comparator.comparingInt(BlockWrites::sequenceOf).thenComparingInt(NewTransaction::txIndex));
        List<ChainRows.Derived> derived = new ArrayList<>(ordered.size());
        for (NewTransaction tx : ordered) {
            derived.add(rows.derive(tx));
        }
        if (canonical) {
            ChainRows.preloadPositions(positions, derived);
        }
        for (ChainRows.Derived tx : derived) {
            rows.insertTransaction(sql, at, tx, positions, true);
        }
        sql.executeAllBatches();
    }
}
