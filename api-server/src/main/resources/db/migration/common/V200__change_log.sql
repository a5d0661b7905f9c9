-- What changed, in the order it was committed: the source of subscriptions (WebSocket and
-- Server-Sent Events, package io.stacksexplorer.subscribe). The write path appends rows in the same
-- database transaction as the change itself, so a row is visible exactly when the change is; every
-- server (a readonly one on a streaming standby too) reads new rows by position, which is also the
-- position a client resumes from. See docs/subscriptions.md.
CREATE TABLE change_log (
    position         BIGINT       NOT NULL PRIMARY KEY,
    -- 'block': a block joined the canonical chain; 'mempool': a transaction entered the mempool;
    -- 'tx': a transaction's state changed (mined, dropped, orphaned back to the mempool)
    kind             VARCHAR(16)  NOT NULL,
    index_block_hash VARCHAR(66),
    tx_id            VARCHAR(66),
    -- Wall clock of the write, milliseconds (for latency measurements and pruning, not for order).
    recorded_at      BIGINT       NOT NULL
);

-- The last position handed out. Writers take it with an UPDATE, which locks the row until their
-- commit: positions are committed in increasing order, so a reader that has seen position n will
-- never see a smaller one appear later (an identity column gives no such guarantee).
CREATE TABLE change_log_head (
    id               INTEGER      NOT NULL PRIMARY KEY,
    position         BIGINT       NOT NULL
);
INSERT INTO change_log_head (id, position) VALUES (1, 0);

-- Whether a transaction's arrival in the mempool was announced before (a node may deliver it again).
CREATE INDEX change_log_tx_idx ON change_log (tx_id, kind, position);
