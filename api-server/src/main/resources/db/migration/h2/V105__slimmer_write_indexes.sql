-- H2; PostgreSQL has the same key changes in db/migration/postgresql, where they are explained
-- (H2 has no partial indexes, so its other indexes stay).
ALTER TABLE principal_txs DROP PRIMARY KEY;
CREATE INDEX principal_txs_block_idx ON principal_txs (index_block_hash, principal);

ALTER TABLE tx_events DROP PRIMARY KEY;
DROP INDEX tx_events_block_idx;
ALTER TABLE tx_events ADD PRIMARY KEY (index_block_hash, tx_id, event_index);

-- Renumbering reads the position index (see the PostgreSQL file); nothing else reads this one.
DROP INDEX principal_txs_history_idx;
