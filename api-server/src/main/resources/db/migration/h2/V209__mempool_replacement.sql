-- H2 (which compares text by character already); the PostgreSQL twin adds COLLATE "C", makes the index
-- partial (which H2 cannot) and indexes pending rows by nonce for a writer without the pending set in
-- memory; here that look-up scans (an embedded database holds a small mempool).
-- Replace-by-fee (write/MempoolReplacement). A transaction spends its origin's nonce and, when
-- sponsored, its sponsor's: `sponsor_nonce` is the second of those (NULL for rows written before this
-- version, which are then matched by their origin's nonce only). `replaced_by_tx_id` names the
-- transaction that took a dropped one's place: the one mined with the same nonce, the pending one that
-- pays more, or the node's `new_txid`. Nullable, no default: adding them rewrites no rows.
ALTER TABLE mempool_txs ADD COLUMN sponsor_nonce BIGINT;
ALTER TABLE mempool_txs ADD COLUMN replaced_by_tx_id VARCHAR(66);
-- A reorg that returns a transaction to the mempool returns the ones it replaced: found by this index.
CREATE INDEX mempool_txs_replaced_by_idx ON mempool_txs (replaced_by_tx_id);
