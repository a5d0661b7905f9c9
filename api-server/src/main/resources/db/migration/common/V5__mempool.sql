-- Transactions the node reported in its mempool. A row stays after it is mined or dropped
-- (pruned = true) so that a reorg can return it to the mempool and a lookup can still say why
-- it left.
CREATE TABLE mempool_txs (
    tx_id                 VARCHAR(66)  NOT NULL PRIMARY KEY,
    raw_tx                TEXT         NOT NULL,
    receipt_time          BIGINT       NOT NULL,
    tx_status             VARCHAR(32)  NOT NULL,
    pruned                BOOLEAN      NOT NULL,
    tx_type               VARCHAR(32)  NOT NULL,
    nonce                 BIGINT       NOT NULL,
    fee_rate              NUMERIC(40)  NOT NULL,
    sender_address        VARCHAR(160) NOT NULL,
    sponsor_address       VARCHAR(160),
    contract_id           VARCHAR(160)
);
-- Pending deployments for the contract-status lookup.
CREATE INDEX mempool_txs_contract_idx ON mempool_txs (contract_id, pruned);

-- Who a pending transaction concerns (sender, sponsor, token-transfer recipient, deployed or called
-- contract). Rows exist only while the transaction is pending.
CREATE TABLE mempool_principals (
    principal             VARCHAR(160) NOT NULL,
    tx_id                 VARCHAR(66)  NOT NULL,
    receipt_time          BIGINT       NOT NULL,
    PRIMARY KEY (principal, tx_id)
);
CREATE INDEX mempool_principals_recent_idx ON mempool_principals (principal, receipt_time DESC, tx_id);

CREATE TABLE mempool_principal_stats (
    principal             VARCHAR(160) NOT NULL PRIMARY KEY,
    pending_count         BIGINT       NOT NULL
);
