-- Every deployment attempt mined in a block (successful or aborted), per fork.
CREATE TABLE smart_contracts (
    contract_id           VARCHAR(160) NOT NULL,
    tx_id                 VARCHAR(66)  NOT NULL,
    index_block_hash      VARCHAR(66)  NOT NULL,
    block_height          BIGINT       NOT NULL,
    microblock_sequence   INTEGER      NOT NULL,
    tx_index              INTEGER      NOT NULL,
    canonical             BOOLEAN      NOT NULL,
    microblock_canonical  BOOLEAN      NOT NULL,
    tx_status             VARCHAR(32)  NOT NULL,
    -- The ABI JSON the node reports for a deployment; names and types of contract-call arguments.
    abi                   TEXT,
    PRIMARY KEY (contract_id, tx_id, index_block_hash)
);
CREATE INDEX smart_contracts_latest_idx ON smart_contracts
    (contract_id, canonical, microblock_canonical, block_height DESC, microblock_sequence DESC, tx_index DESC);
CREATE INDEX smart_contracts_block_idx ON smart_contracts (index_block_hash);
