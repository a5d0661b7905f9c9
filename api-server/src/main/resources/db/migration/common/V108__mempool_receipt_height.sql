-- The chain height at which a transaction entered the mempool (or re-entered it, returned by a
-- reorg). As the peer does, a transaction still pending 256 blocks later is garbage-collected:
-- dropped with tx_status 'dropped_stale_garbage_collect' (a node garbage-collects its own mempool
-- the same way, but a transaction the node never announced, such as an orphaned block's coinbase,
-- only leaves ours this way). Rows pending at upgrade count from the current tip.
ALTER TABLE mempool_txs ADD COLUMN receipt_block_height BIGINT;
UPDATE mempool_txs SET receipt_block_height = COALESCE((SELECT block_height FROM chain_state WHERE id = 1), 0);
ALTER TABLE mempool_txs ALTER COLUMN receipt_block_height SET NOT NULL;
