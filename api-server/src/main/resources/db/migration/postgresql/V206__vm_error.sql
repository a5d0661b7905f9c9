-- PostgreSQL: text in byte order like every text column (V204); the H2 twin has the same column.
-- The Clarity VM's error of a transaction as the node's receipt states it (`vm_error`, served on every
-- mined transaction since the peer's v9); NULL when the receipt has none. Nullable, no default, no index:
-- adding it rewrites no rows on either database.
ALTER TABLE txs ADD COLUMN vm_error TEXT COLLATE "C";
