-- H2; PostgreSQL has the same key changes in db/migration/postgresql, where they are explained.
ALTER TABLE tx_events DROP PRIMARY KEY;
ALTER TABLE tx_events ADD PRIMARY KEY (block_height, index_block_hash, tx_id, event_index);

DROP INDEX principal_txs_block_idx;
CREATE INDEX principal_txs_block_idx ON principal_txs (block_height, index_block_hash, principal);
