-- PostgreSQL; H2 has the same key changes in db/migration/h2.
--
-- The two indexes that find a block's rows led with the block's random hash, so a replay wrote
-- every new entry to a random page of two of the database's largest indexes (tx_events_pkey 479 MB,
-- principal_txs_block_idx 307 MB for 1,000,000 transactions): with 128 MB of shared buffers those
-- pages were read back from the page cache and written out again for nearly every block, and each
-- checkpoint made the next change to each of them a full-page image in the WAL. Led by the block's
-- height, new blocks append at the right edge of both. Every row of a block (or microblock stream)
-- carries that block's height, so each statement that named the block by its hash names its height
-- too: the reorg and microblock flips and deletes and the renumbering by block (their callers know
-- the height), and the reads that find a transaction's rows through its txs row (which has it).
-- Measured in a replay of the 1,000,000-transaction mixed log: docs/performance.md.
ALTER TABLE tx_events DROP CONSTRAINT tx_events_pkey;
ALTER TABLE tx_events ADD PRIMARY KEY (block_height, index_block_hash, tx_id, event_index);

DROP INDEX principal_txs_block_idx;
CREATE INDEX principal_txs_block_idx ON principal_txs (block_height, index_block_hash, principal);
