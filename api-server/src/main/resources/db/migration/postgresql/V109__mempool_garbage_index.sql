-- Pending transactions by the height they arrived at: the garbage collection's look-up when the
-- writer does not hold the pending set in memory (see PendingMempool). Partial: pruned rows, the
-- vast majority, are never asked for.
CREATE INDEX mempool_txs_pending_height_idx ON mempool_txs (receipt_block_height) WHERE NOT pruned;
