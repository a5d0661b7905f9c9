-- Numbered after the PostgreSQL-only V100/V101 so that a database already at V101 applies it in order.
-- Lookups of the write path that had no index and so scanned a whole table on every call, a cost
-- that grew with the chain (found by profiling a 100,000-transaction replay: 40 % of its wall clock).

-- A mined or dropped transaction leaves the mempool: its principals are found and deleted by tx_id
-- (the primary key leads with principal).
CREATE INDEX mempool_principals_tx_idx ON mempool_principals (tx_id);

-- Microblock streams: whether an anchor block already confirmed a microblock, by its hash.
CREATE INDEX txs_microblock_idx ON txs (microblock_hash);
