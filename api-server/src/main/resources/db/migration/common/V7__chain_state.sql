-- The chain tip and network facts as one row, updated in the same transaction as the block that
-- moves it, so readers never see a tip whose block is not written yet.
CREATE TABLE chain_state (
    id                          INTEGER      NOT NULL PRIMARY KEY,
    block_height                BIGINT,
    block_hash                  VARCHAR(66),
    index_block_hash            VARCHAR(66),
    burn_block_height           BIGINT,
    microblock_hash             VARCHAR(66),
    microblock_sequence         INTEGER,
    pox_v1_unlock_height        BIGINT,
    pox_v2_unlock_height        BIGINT,
    pox_v3_unlock_height        BIGINT,
    mempool_version             BIGINT       NOT NULL
);
INSERT INTO chain_state (id, mempool_version) VALUES (1, 0);
