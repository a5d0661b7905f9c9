-- PostgreSQL; H2 has no partial indexes and keeps V200's change_log_tx_idx.
--
-- The change log's tx_id index answers one question: whether an earlier change announced a
-- transaction's arrival in the mempool (ChangeQueries.ENTERED_BEFORE, which always says
-- kind = 'mempool'). V200 indexed every row, and mined and orphaned transactions ('tx') and blocks
-- are two thirds of the log: replaying a 100,000-transaction mixed-era log wrote 172,250 change
-- rows, 60,692 of them 'mempool', and this index's entries were 46 MB of the replay's 864 MB of WAL
-- (5.4 %). Partial, it holds the mempool rows only.
DROP INDEX change_log_tx_idx;
CREATE INDEX change_log_mempool_tx_idx ON change_log (tx_id, position) WHERE kind = 'mempool';
