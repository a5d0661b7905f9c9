-- PostgreSQL; H2 has the same change in db/migration/h2 (dropping a primary key is spelled differently).
--
-- Ingest at chain scale: an index whose keys arrive in random order costs a random page per
-- inserted row, and once it is larger than the buffer cache, a page read, a page written back and
-- a full-page image in the WAL after every checkpoint. principal_txs' primary key led with the
-- principal and then the random transaction id: the largest index of the database (123 MB for
-- 200,000 transactions, more than the table) and the most expensive statement of a replay.
-- Leading with the block instead, the rows of one block are neighbours in the index, a block's
-- rows touch one or two pages, and the key also answers everything the separate block index
-- answered (reorg flips and renumbering by block). A row's key is the same three columns.
ALTER TABLE principal_txs DROP CONSTRAINT principal_txs_pkey;
ALTER TABLE principal_txs ADD PRIMARY KEY (index_block_hash, principal, tx_id);
DROP INDEX principal_txs_block_idx;

-- Lookups by transaction id use the primary key (tx_id, index_block_hash): a second index on
-- tx_id alone doubled the random-order index work of every inserted transaction.
DROP INDEX txs_tx_id_idx;
