-- Microblocks in the change log (kind 'microblock', index_block_hash = the anchored block the stream
-- builds on): the header facts the node sends with /new_microblocks and no other table keeps, so
-- that the notification shows them as delivered. Null on every other kind. See docs/subscriptions.md.
ALTER TABLE change_log ADD COLUMN microblock_hash VARCHAR(66);
ALTER TABLE change_log ADD COLUMN microblock_sequence INTEGER;
ALTER TABLE change_log ADD COLUMN microblock_parent_hash VARCHAR(66);
ALTER TABLE change_log ADD COLUMN parent_burn_block_hash VARCHAR(66);
ALTER TABLE change_log ADD COLUMN parent_burn_block_height BIGINT;
ALTER TABLE change_log ADD COLUMN parent_burn_block_time BIGINT;
