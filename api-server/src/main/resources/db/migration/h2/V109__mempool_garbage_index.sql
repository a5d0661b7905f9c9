-- Pending transactions by the height they arrived at: the garbage collection's look-up when the
-- writer does not hold the pending set in memory (see PendingMempool).
CREATE INDEX mempool_txs_pending_height_idx ON mempool_txs (pruned, receipt_block_height);
