-- PostgreSQL; H2 has the key changes of this file in db/migration/h2 (it has no partial indexes).
--
-- Ingest at chain scale, fewer and narrower index entries per written row. A profile of the
-- database backend during a 1,000,000-transaction replay put 35 % of its time in index
-- insertion (btree descent and text comparisons), more than in writing the rows themselves.

-- Address history: the primary key (index_block_hash, principal, tx_id) was the largest index of
-- the database (about 180 bytes an entry, 128 MB for 200,000 transactions) and nothing needs its
-- uniqueness: the write path writes a block's rows once, after checking that the block is new.
-- Every statement that used it names the block first (reorg flips and renumbering by block, the
-- page's join to txs, a position lookup through the transaction's blocks), and a block holds
-- about a hundred history rows, so an index on the block and the principal answers them all
-- (one of its rows, when the principal is given). The block alone would be smaller still, but
-- the planner then combined it with the principal's position index, which for an address in a
-- third of all transactions meant reading its whole history for every renumbered row.
ALTER TABLE principal_txs DROP CONSTRAINT principal_txs_pkey;
CREATE INDEX principal_txs_block_idx ON principal_txs (index_block_hash, principal);

-- Events: the primary key led with the random transaction id, so every event touched a random
-- page of a 90 MB index (200,000 transactions), and a second index on the block served the reorg
-- flips. One key leading with the block does both: a block's events are neighbours, and a
-- transaction's events are found through its block (txs gives the blocks of a transaction id).
ALTER TABLE tx_events DROP CONSTRAINT tx_events_pkey;
DROP INDEX tx_events_block_idx;
ALTER TABLE tx_events ADD PRIMARY KEY (index_block_hash, tx_id, event_index);

-- Only unanchored microblock rows are ever looked up by these two: an index over just them
-- instead of an entry for every transaction. The statements repeat the predicate
-- (is_unanchored = TRUE, microblock_hash <> '0x') so that a generic plan can use them.
DROP INDEX txs_unanchored_idx;
CREATE INDEX txs_unanchored_idx ON txs (microblock_canonical, block_height) WHERE is_unanchored;
DROP INDEX txs_microblock_idx;
CREATE INDEX txs_microblock_idx ON txs (microblock_hash) WHERE microblock_hash <> '0x';

-- The pending-deployment lookup is answered by V100's partial index (contract_id) WHERE NOT pruned;
-- the full index also held every mined and dropped transaction.
DROP INDEX mempool_txs_contract_idx;

-- Deferred microblock payloads are rare: index only them, not every payload's NULL.
DROP INDEX node_events_deferred_idx;
CREATE INDEX node_events_deferred_idx ON node_events (deferred_parent) WHERE deferred_parent IS NOT NULL;

-- Renumbering (write/Positions) walks the position index (V10) instead of an index in chain order:
-- the served rows, and only they, are numbered densely in chain order, so the newest one below a
-- fork height is found by reading that index down from the top. V100's chain-order history index
-- was read by nothing else; it cost an entry for every served history row.
DROP INDEX principal_txs_canonical_history_idx;
