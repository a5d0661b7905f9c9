-- Events of committed transactions, all kinds in one table: which columns are set depends on
-- event_type. event_index is the position within the transaction (0..n-1), as served.
CREATE TABLE tx_events (
    tx_id                 VARCHAR(66)  NOT NULL,
    index_block_hash      VARCHAR(66)  NOT NULL,
    event_index           INTEGER      NOT NULL,
    event_type            VARCHAR(32)  NOT NULL,
    block_height          BIGINT       NOT NULL,
    microblock_sequence   INTEGER      NOT NULL,
    tx_index              INTEGER      NOT NULL,
    canonical             BOOLEAN      NOT NULL,
    microblock_canonical  BOOLEAN      NOT NULL,
    is_unanchored         BOOLEAN      NOT NULL,
    -- smart_contract_log
    contract_id           VARCHAR(160),
    topic                 VARCHAR(160),
    -- smart_contract_log value, non_fungible_token_asset value
    value_hex             TEXT,
    -- stx_asset, fungible_token_asset, non_fungible_token_asset
    asset_event_type      VARCHAR(16),
    asset_id              VARCHAR(320),
    sender                VARCHAR(160),
    recipient             VARCHAR(160),
    amount                NUMERIC(40),
    memo                  TEXT,
    -- stx_lock
    locked_amount         NUMERIC(40),
    unlock_height         BIGINT,
    locked_address        VARCHAR(160),
    PRIMARY KEY (tx_id, index_block_hash, event_index)
);
-- Contract log history, newest first (GET /contract/{id}/events).
CREATE INDEX tx_events_contract_log_idx ON tx_events
    (contract_id, canonical, microblock_canonical, block_height DESC, microblock_sequence DESC, tx_index DESC, event_index DESC);
-- Reorg: everything hanging from one block.
CREATE INDEX tx_events_block_idx ON tx_events (index_block_hash);
