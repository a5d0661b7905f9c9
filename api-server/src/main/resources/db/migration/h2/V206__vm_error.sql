-- H2 (which compares text by character already); the PostgreSQL twin adds COLLATE "C".
-- The Clarity VM's error of a transaction as the node's receipt states it (`vm_error`, served on every
-- mined transaction since the peer's v9); NULL when the receipt has none. Nullable, no default, no index:
-- adding it rewrites no rows on either database.
ALTER TABLE txs ADD COLUMN vm_error TEXT;
