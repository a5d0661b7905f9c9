-- PostgreSQL: text in byte order like every text column (V204); the H2 twin has the same table.
-- Transactions of stored blocks that the build that stored them could not read (a wire feature, status
-- or Clarity value newer than its decoder): not served, completed by `rebuild` after an upgrade, which
-- re-derives them from the verbatim payloads in node_events and empties this table first.
CREATE TABLE held_txs (
    tx_id            VARCHAR(66)  COLLATE "C" NOT NULL,
    index_block_hash VARCHAR(66)  COLLATE "C" NOT NULL,
    block_height     BIGINT       NOT NULL,
    tx_index         INTEGER      NOT NULL,
    tx_status        VARCHAR(64)  COLLATE "C" NOT NULL,
    reason           TEXT         COLLATE "C" NOT NULL,
    byte_offset      INTEGER      NOT NULL,
    PRIMARY KEY (tx_id, index_block_hash)
);
