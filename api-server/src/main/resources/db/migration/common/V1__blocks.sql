-- Anchored blocks of every fork seen. Orphaned blocks stay (canonical = false) so that a later
-- reorg back onto their fork only flips flags instead of needing the node to resend them.
CREATE TABLE blocks (
    index_block_hash            VARCHAR(66)  NOT NULL PRIMARY KEY,
    block_hash                  VARCHAR(66)  NOT NULL,
    block_height                BIGINT       NOT NULL,
    parent_block_hash           VARCHAR(66)  NOT NULL,
    parent_index_block_hash     VARCHAR(66)  NOT NULL,
    parent_microblock_hash      VARCHAR(66)  NOT NULL,
    parent_microblock_sequence  INTEGER      NOT NULL,
    block_time                  BIGINT       NOT NULL,
    burn_block_time             BIGINT       NOT NULL,
    burn_block_hash             VARCHAR(66)  NOT NULL,
    burn_block_height           BIGINT       NOT NULL,
    miner_txid                  VARCHAR(66)  NOT NULL,
    tx_count                    INTEGER      NOT NULL,
    execution_cost_read_count   BIGINT       NOT NULL,
    execution_cost_read_length  BIGINT       NOT NULL,
    execution_cost_runtime      BIGINT       NOT NULL,
    execution_cost_write_count  BIGINT       NOT NULL,
    execution_cost_write_length BIGINT       NOT NULL,
    canonical                   BOOLEAN      NOT NULL
);
-- GET /blocks/{height}, `latest`, and the reorg walk by height.
CREATE INDEX blocks_height_idx ON blocks (block_height, canonical);
-- GET /blocks/{hash}: the hash may be the block hash, not the index block hash.
CREATE INDEX blocks_block_hash_idx ON blocks (block_hash);
-- Reorg walk: children of a block.
CREATE INDEX blocks_parent_idx ON blocks (parent_index_block_hash);
