-- The v3 principal mempool route pages by keyset in the peer's order, receipt time then tx id, both
-- descending (a cursor is receipt_time:tx_id). mempool_principals_recent_idx orders ties by tx id
-- ascending (the v1 route's order), so a page there would read and sort every tie of its receipt
-- time, and a node announces many transactions at once. This index has the v3 order, so a page is
-- one range that its LIMIT ends. The table holds only pending transactions: the index stays small.
CREATE INDEX mempool_principals_keyset_idx ON mempool_principals (principal, receipt_time DESC, tx_id DESC);
