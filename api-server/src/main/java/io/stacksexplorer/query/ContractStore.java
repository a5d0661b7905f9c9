package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import javax.sql.DataSource;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of contract deployments and contract log events: counters, positions and ABIs through the
 * generic mapper; the log page and the deployment status, hot, in plain JDBC.
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
abstract class ContractStore implements GenericRepository<ContractDeployRow, String> {

    /**
     * Every canonical successful deployment of the given contracts; their ABIs name contract-call
     * arguments (the caller keeps the latest per contract).
     */
    static final String FIND_ALL_DEPLOYED = "SELECT " + ContractDeployRow.COLUMNS + " FROM smart_contracts"
            + " WHERE contract_id IN (:contractIds) AND canonical = TRUE AND tx_status = 'success'";

    /**
     * The position of the newest anchored log event. Served events, and only they, carry a position,
     * dense and in chain order; unanchored events, when there are any, are the newest positions
     * (they sit on the tip), so walking the position index down from the top skips only those few.
     * The ORDER BY names the contract (a constant) so that H2 walks the index backwards too.
     */
    static final String FIND_ANCHORED_TOP = "SELECT log_position FROM tx_events WHERE contract_id = :contractId"
            + " AND log_position IS NOT NULL AND is_unanchored = FALSE"
            + " ORDER BY contract_id DESC, log_position DESC LIMIT 1";

    /**
     * The current position of a served log event, when it is still served. The events' key leads
     * with the block (migration V105), so the transaction's blocks come from txs first.
     */
    static final String FIND_LOG_POSITION = "SELECT e.log_position FROM txs t JOIN tx_events e"
            + " ON e.index_block_hash = t.index_block_hash AND e.tx_id = t.tx_id AND e.event_index = :eventIndex"
            + " WHERE t.tx_id = :txId AND e.contract_id = :contractId AND e.canonical = TRUE"
            + " AND e.microblock_canonical = TRUE AND e.event_type = 'smart_contract_log'";

    static final String COUNT_LOGS = "SELECT event_count FROM contract_log_stats WHERE contract_id = :contractId";

    /** The latest canonical deployment attempt of a contract (contract status). */
    static final String LATEST_DEPLOY = "SELECT " + ContractDeployRow.COLUMNS + " FROM smart_contracts"
            + " WHERE contract_id = ? AND canonical = TRUE AND microblock_canonical = TRUE"
            + " ORDER BY block_height DESC, microblock_sequence DESC, tx_index DESC LIMIT 1";

    /** Log events at positions (below, top] of a contract, newest first (tx_events_log_position_idx). */
    static final String LOG_RANGE = "SELECT " + EventRow.COLUMNS + " FROM tx_events WHERE contract_id = ?"
            + " AND log_position <= ? AND log_position > ? ORDER BY log_position DESC";

    private final DataSource dataSource;

    ContractStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    @Query(FIND_ALL_DEPLOYED)
    abstract List<ContractDeployRow> findAllDeployed(Collection<String> contractIds);

    @Query(FIND_ANCHORED_TOP)
    abstract Optional<Long> findAnchoredTop(String contractId);

    @Query(FIND_LOG_POSITION)
    abstract Optional<Long> findLogPosition(String contractId, String txId, int eventIndex);

    @Query(COUNT_LOGS)
    abstract Optional<Long> countLogs(String contractId);

    Optional<ContractDeployRow> latestDeploy(String contractId) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", LATEST_DEPLOY, ps -> ps.setString(1, contractId),
                rs -> ContractDeployRow.read(rs, 1)));
    }

    List<EventRow> logRange(String contractId, long top, long below) {
        return PlainJdbc.query(dataSource, "query", LOG_RANGE, ps -> {
            ps.setString(1, contractId);
            ps.setLong(2, top);
            ps.setLong(3, below);
        }, rs -> EventRow.read(rs, 1));
    }
}
