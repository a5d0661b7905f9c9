-- PostgreSQL: text in byte order like every text column (V204); the H2 twin has the same columns.
-- Replace-by-fee (write/MempoolReplacement). A transaction spends its origin's nonce and, when
-- sponsored, its sponsor's: `sponsor_nonce` is the second of those (NULL for rows written before this
-- version, which are then matched by their origin's nonce only). `replaced_by_tx_id` names the
-- transaction that took a dropped one's place: the one mined with the same nonce, the pending one that
-- pays more, or the node's `new_txid`. Nullable, no default: adding them rewrites no rows.
ALTER TABLE mempool_txs ADD COLUMN sponsor_nonce BIGINT;
ALTER TABLE mempool_txs ADD COLUMN replaced_by_tx_id VARCHAR(66) COLLATE "C";
-- A reorg that returns a transaction to the mempool returns the ones it replaced: found by this index.
-- Partial: almost every row was never replaced.
CREATE INDEX mempool_txs_replaced_by_idx ON mempool_txs (replaced_by_tx_id) WHERE replaced_by_tx_id IS NOT NULL;
-- Pending transactions by the nonce they spend: asked only when the writer does not hold the pending
-- set in memory (PendingMempool). Partial like mempool_txs_pending_height_idx.
CREATE INDEX mempool_txs_pending_nonce_idx ON mempool_txs (sender_address, nonce) WHERE NOT pruned;
CREATE INDEX mempool_txs_pending_sponsor_nonce_idx ON mempool_txs (sponsor_address, sponsor_nonce)
    WHERE NOT pruned AND sponsor_address IS NOT NULL;
