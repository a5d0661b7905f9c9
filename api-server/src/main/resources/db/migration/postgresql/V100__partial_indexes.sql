-- PostgreSQL only (H2 cannot create partial indexes): smaller indexes that hold only the rows the
-- API serves. The planner uses them for the canonical-only history queries.
CREATE INDEX principal_txs_canonical_history_idx ON principal_txs
    (principal, block_height DESC, microblock_sequence DESC, tx_index DESC)
    WHERE canonical AND microblock_canonical;
CREATE INDEX tx_events_canonical_log_idx ON tx_events
    (contract_id, block_height DESC, microblock_sequence DESC, tx_index DESC, event_index DESC)
    WHERE canonical AND microblock_canonical AND event_type = 'smart_contract_log';
CREATE INDEX mempool_txs_pending_contract_idx ON mempool_txs (contract_id) WHERE NOT pruned;
