-- Numbered after the PostgreSQL-only V100/V101 so that a database already at V101 applies it in order.
-- An anchor block settles the unanchored microblock rows still served below it. Rows of streams
-- settled earlier stay (is_unanchored, not microblock_canonical) for good; with only
-- (is_unanchored, block_height) indexed, every block walked all of them again: 133 s of database
-- time in a 1,000,000-transaction replay, growing with the chain. Now the walk sees served rows only.
DROP INDEX txs_unanchored_idx;
CREATE INDEX txs_unanchored_idx ON txs (is_unanchored, microblock_canonical, block_height);
