-- Moves in every transaction that changes served rows below the top of a list (write.Positions: a reorg, microblocks
-- settled), never when rows only append above the others. A reader that keeps the parts of a page
-- read at different moments (web.KeptPages: a contract's event count, and the events of one window
-- of its positions) joins two parts only when both were read at the same version, so that a page
-- never combines a count from before a renumbering with events from after it, or the reverse.
ALTER TABLE chain_state ADD COLUMN positions_version BIGINT DEFAULT 0 NOT NULL;
