-- PostgreSQL; H2 drops its own chain-order log index in db/migration/h2.
--
-- The newest anchored log event of a contract (the top of a contract-events page) is found by
-- walking the position index (V10, partial since V101) down from the top, as the write path's
-- renumbering already did: served log events, and only they, carry a dense position in chain
-- order. The chain-order index of V100 was read by nothing else, and it hurt the write path: for
-- the served logs of one block and contract (write/Positions), the planner preferred it to the
-- block key and read the whole history of a contract of 245,000 logs, 8.5 ms a call and 12 s of a
-- 1,000,000-transaction replay; and it cost an entry for every log event written.
DROP INDEX tx_events_canonical_log_idx;
