package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Reads of contract deployments and contract log events. */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface ContractRepository extends GenericRepository<ContractDeployRow, String> {

    /**
     * Every canonical successful deployment of the given contracts; their ABIs name contract-call
     * arguments (the caller keeps the latest per contract).
     */
    @Query("SELECT " + ContractDeployRow.COLUMNS + " FROM smart_contracts WHERE contract_id IN (:contractIds)"
            + " AND canonical = TRUE AND tx_status = 'success'")
    List<ContractDeployRow> findAllDeployed(Collection<String> contractIds);

    /**
     * The position of the newest anchored log event. Served events, and only they, carry a position,
     * dense and in chain order; unanchored events, when there are any, are the newest positions
     * (they sit on the tip), so walking the position index down from the top skips only those few.
     * The ORDER BY names the contract (a constant) so that H2 walks the index backwards too.
     */
    @Query("SELECT log_position FROM tx_events WHERE contract_id = :contractId AND log_position IS NOT NULL"
            + " AND is_unanchored = FALSE ORDER BY contract_id DESC, log_position DESC LIMIT 1")
    Optional<Long> findAnchoredTop(String contractId);

    /**
     * The current position of a served log event, when it is still served. The events' key leads
     * with the block (migration V105), so the transaction's blocks come from txs first.
     */
    @Query("SELECT e.log_position FROM txs t JOIN tx_events e ON e.index_block_hash = t.index_block_hash"
            + " AND e.tx_id = t.tx_id AND e.event_index = :eventIndex"
            + " WHERE t.tx_id = :txId AND e.contract_id = :contractId AND e.canonical = TRUE"
            + " AND e.microblock_canonical = TRUE AND e.event_type = 'smart_contract_log'")
    Optional<Long> findLogPosition(String contractId, String txId, int eventIndex);

    @Query("SELECT event_count FROM contract_log_stats WHERE contract_id = :contractId")
    Optional<Long> countLogs(String contractId);
}
