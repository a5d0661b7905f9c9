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

    /** The latest canonical deployment attempt. */
    @Query("SELECT " + ContractDeployRow.COLUMNS + " FROM smart_contracts WHERE contract_id = :contractId"
            + " AND canonical = TRUE AND microblock_canonical = TRUE"
            + " ORDER BY block_height DESC, microblock_sequence DESC, tx_index DESC LIMIT 1")
    Optional<ContractDeployRow> findLatestDeploy(String contractId);

    /**
     * Every canonical successful deployment of the given contracts; their ABIs name contract-call
     * arguments (the caller keeps the latest per contract).
     */
    @Query("SELECT " + ContractDeployRow.COLUMNS + " FROM smart_contracts WHERE contract_id IN (:contractIds)"
            + " AND canonical = TRUE AND tx_status = 'success'")
    List<ContractDeployRow> findAllDeployed(Collection<String> contractIds);

    /** Log events of a contract, newest first; one index range scan over tx_events_contract_log_idx. */
    @Query("SELECT " + EventRow.COLUMNS + " FROM tx_events WHERE contract_id = :contractId"
            + " AND canonical = TRUE AND microblock_canonical = TRUE AND event_type = 'smart_contract_log'"
            + " AND (is_unanchored = FALSE OR :unanchored = TRUE)"
            + " ORDER BY block_height DESC, microblock_sequence DESC, tx_index DESC, event_index DESC"
            + " LIMIT :limit OFFSET :offset")
    List<EventRow> findLogs(String contractId, boolean unanchored, int limit, int offset);

    @Query("SELECT event_count FROM contract_log_stats WHERE contract_id = :contractId")
    Optional<Long> countLogs(String contractId);
}
