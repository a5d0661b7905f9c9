-- PostgreSQL only: less work per written row, for ingest at chain scale.

-- Raw payloads are kept verbatim and read back only by a rebuild; lz4 compresses them several
-- times faster than the default pglz, which cost the database most of the time of an insert into
-- node_events during a replay (PostgreSQL 14 or newer built with lz4, as Debian's and the
-- official images are). Existing rows keep their compression until rewritten.
ALTER TABLE node_events ALTER COLUMN payload SET COMPRESSION lz4;

-- The partial indexes of V100 (served rows only) answer everything these two full indexes were
-- created for: the position renumbering of the write path reads only served rows, and the API
-- pages by position (V10). Each was maintained on every insert into the two largest tables
-- without ever being read on PostgreSQL (pg_stat_user_indexes.idx_scan = 0 after a
-- 100,000-transaction replay). H2, which has no partial indexes, keeps them.
DROP INDEX principal_txs_history_idx;
DROP INDEX tx_events_contract_log_idx;

-- Only log events have a position: the contract-events page index holds just them (the range
-- predicate of the page query, log_position > below, implies IS NOT NULL), instead of an entry
-- for every event of every kind.
DROP INDEX tx_events_log_position_idx;
CREATE INDEX tx_events_log_position_idx ON tx_events (contract_id, log_position) WHERE log_position IS NOT NULL;
