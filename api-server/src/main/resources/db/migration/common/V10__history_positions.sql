-- Paging whose cost does not grow with depth (address histories, contract logs).
--
-- LIMIT/OFFSET walks and discards `offset` index entries, so page k of a 500,000-transaction
-- history costs k. Instead every row the API serves (canonical AND microblock_canonical; for
-- tx_events only smart_contract_log rows) carries its position among its principal's (or
-- contract's) served rows: 1 for the oldest, then upwards in chain order (block_height,
-- microblock_sequence, tx_index[, event_index]), dense, with no gaps. Rows not served have NULL.
-- The counter (principal_stats.tx_count, contract_log_stats.event_count) is always the highest
-- position, so the page at `offset` k newest-first is the index range
--     position IN (total - k - limit, total - k]
-- on (principal, history_position) / (contract_id, log_position): the same cost at any depth.
--
-- The write path keeps the numbering in the same database transaction as the rows:
--   * a canonical block on the tip appends: its rows get counter + 1, counter + 2, … in chain order;
--   * a reorg, a settled microblock stream or new unanchored rows change only the newest rows of
--     the principals they touch: rows at or above the lowest touched block height are renumbered
--     from the position of the newest served row below that height (one index lookup), so the cost
--     is that of the rows above the fork point, never of the whole history;
--   * rows leaving the served set (orphaned, non-canonical microblocks) get NULL.
-- A cursor (see the API) pins a position together with the row's chain-order key, so a page walk
-- stays put while new blocks append above it.
ALTER TABLE principal_txs ADD COLUMN history_position BIGINT;
ALTER TABLE tx_events ADD COLUMN log_position BIGINT;

-- Number the rows of databases written before this migration (small: the demo chain, recorded
-- logs). New rows are numbered by the write path.
UPDATE principal_txs SET history_position = (
    SELECT r.n FROM (
        SELECT principal, tx_id, index_block_hash,
               ROW_NUMBER() OVER (PARTITION BY principal
                                  ORDER BY block_height, microblock_sequence, tx_index) AS n
        FROM principal_txs WHERE canonical = TRUE AND microblock_canonical = TRUE) r
    WHERE r.principal = principal_txs.principal AND r.tx_id = principal_txs.tx_id
      AND r.index_block_hash = principal_txs.index_block_hash)
WHERE canonical = TRUE AND microblock_canonical = TRUE;

UPDATE tx_events SET log_position = (
    SELECT r.n FROM (
        SELECT tx_id, index_block_hash, event_index,
               ROW_NUMBER() OVER (PARTITION BY contract_id
                                  ORDER BY block_height, microblock_sequence, tx_index, event_index) AS n
        FROM tx_events
        WHERE canonical = TRUE AND microblock_canonical = TRUE AND event_type = 'smart_contract_log') r
    WHERE r.tx_id = tx_events.tx_id AND r.index_block_hash = tx_events.index_block_hash
      AND r.event_index = tx_events.event_index)
WHERE canonical = TRUE AND microblock_canonical = TRUE AND event_type = 'smart_contract_log';

-- The page lookups: a range on position within one principal / contract.
CREATE INDEX principal_txs_position_idx ON principal_txs (principal, history_position);
CREATE INDEX tx_events_log_position_idx ON tx_events (contract_id, log_position);
