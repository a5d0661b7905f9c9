-- Mined transactions, one row per (transaction, block that mined it): the same transaction can be
-- mined on two forks. Payload and post conditions are not split into columns: they are decoded
-- from raw_tx when served, so a decoder fix never needs a data migration.
CREATE TABLE txs (
    tx_id                       VARCHAR(66)  NOT NULL,
    index_block_hash            VARCHAR(66)  NOT NULL,
    block_hash                  VARCHAR(66)  NOT NULL,
    block_height                BIGINT       NOT NULL,
    block_time                  BIGINT       NOT NULL,
    burn_block_time             BIGINT       NOT NULL,
    burn_block_height           BIGINT       NOT NULL,
    parent_burn_block_time      BIGINT       NOT NULL,
    parent_block_hash           VARCHAR(66)  NOT NULL,
    parent_index_block_hash     VARCHAR(66)  NOT NULL,
    tx_index                    INTEGER      NOT NULL,
    microblock_hash             VARCHAR(66)  NOT NULL,
    microblock_sequence         INTEGER      NOT NULL,
    is_unanchored               BOOLEAN      NOT NULL,
    canonical                   BOOLEAN      NOT NULL,
    microblock_canonical        BOOLEAN      NOT NULL,
    tx_type                     VARCHAR(32)  NOT NULL,
    tx_status                   VARCHAR(32)  NOT NULL,
    nonce                       BIGINT       NOT NULL,
    fee_rate                    NUMERIC(40)  NOT NULL,
    sender_address              VARCHAR(160) NOT NULL,
    sponsored                   BOOLEAN      NOT NULL,
    sponsor_address             VARCHAR(160),
    sponsor_nonce               BIGINT,
    contract_id                 VARCHAR(160),
    raw_tx                      TEXT         NOT NULL,
    raw_result                  TEXT         NOT NULL,
    event_count                 INTEGER      NOT NULL,
    execution_cost_read_count   BIGINT       NOT NULL,
    execution_cost_read_length  BIGINT       NOT NULL,
    execution_cost_runtime      BIGINT       NOT NULL,
    execution_cost_write_count  BIGINT       NOT NULL,
    execution_cost_write_length BIGINT       NOT NULL,
    PRIMARY KEY (tx_id, index_block_hash)
);
-- Lookup by id picks the canonical row first.
CREATE INDEX txs_tx_id_idx ON txs (tx_id, canonical, microblock_canonical);
-- Reorg: everything hanging from one block.
CREATE INDEX txs_block_idx ON txs (index_block_hash);
