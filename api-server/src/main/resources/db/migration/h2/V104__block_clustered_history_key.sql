-- H2; PostgreSQL has the same change in db/migration/postgresql, where it is explained.
ALTER TABLE principal_txs DROP PRIMARY KEY;
ALTER TABLE principal_txs ADD PRIMARY KEY (index_block_hash, principal, tx_id);
DROP INDEX principal_txs_block_idx;

DROP INDEX txs_tx_id_idx;
