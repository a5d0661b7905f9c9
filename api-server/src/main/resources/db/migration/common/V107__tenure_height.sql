-- The tenure height (coinbase height) the node reports for Nakamoto blocks (epoch 3.0 on). NULL for
-- a block whose payload carries none (pre-Nakamoto): every such block had its own coinbase, so its
-- tenure height is its height, which is what the API serves for NULL (query.BlockRow).
ALTER TABLE blocks ADD COLUMN tenure_height BIGINT;
