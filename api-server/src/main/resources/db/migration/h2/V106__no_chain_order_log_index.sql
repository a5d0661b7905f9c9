-- H2; PostgreSQL drops its own chain-order log index in db/migration/postgresql.
--
-- The newest anchored log event of a contract is found by walking the position index (V10)
-- backwards, so the chain-order log index of V3 is read by nothing. Worse, H2 chose it for the
-- served logs of one block and contract (write/Positions), which led with the contract: on a
-- 200,000-transaction log, EXPLAIN ANALYZE showed 49,308 rows scanned, the contract's whole
-- history, for the few logs of one block.
DROP INDEX tx_events_contract_log_idx;
