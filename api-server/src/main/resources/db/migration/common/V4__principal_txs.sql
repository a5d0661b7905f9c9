-- Address history, denormalised: one row per (principal, transaction, block) with the principal's
-- STX totals and event counts precomputed at write time, so a page is one index range scan.
CREATE TABLE principal_txs (
    principal             VARCHAR(160) NOT NULL,
    tx_id                 VARCHAR(66)  NOT NULL,
    index_block_hash      VARCHAR(66)  NOT NULL,
    block_height          BIGINT       NOT NULL,
    microblock_sequence   INTEGER      NOT NULL,
    tx_index              INTEGER      NOT NULL,
    canonical             BOOLEAN      NOT NULL,
    microblock_canonical  BOOLEAN      NOT NULL,
    stx_sent              NUMERIC(40)  NOT NULL,
    stx_received          NUMERIC(40)  NOT NULL,
    stx_transfer          INTEGER      NOT NULL,
    stx_mint              INTEGER      NOT NULL,
    stx_burn              INTEGER      NOT NULL,
    ft_transfer           INTEGER      NOT NULL,
    ft_mint               INTEGER      NOT NULL,
    ft_burn               INTEGER      NOT NULL,
    nft_transfer          INTEGER      NOT NULL,
    nft_mint              INTEGER      NOT NULL,
    nft_burn              INTEGER      NOT NULL,
    PRIMARY KEY (principal, tx_id, index_block_hash)
);
CREATE INDEX principal_txs_history_idx ON principal_txs
    (principal, canonical, microblock_canonical, block_height DESC, microblock_sequence DESC, tx_index DESC);
CREATE INDEX principal_txs_block_idx ON principal_txs (index_block_hash);

-- O(1) totals: maintained by the write path in the same database transaction as the rows they
-- count (insert of a canonical block, reorg flips). Never computed with COUNT at request time.
CREATE TABLE principal_stats (
    principal             VARCHAR(160) NOT NULL PRIMARY KEY,
    tx_count              BIGINT       NOT NULL
);
CREATE TABLE contract_log_stats (
    contract_id           VARCHAR(160) NOT NULL PRIMARY KEY,
    event_count           BIGINT       NOT NULL
);
