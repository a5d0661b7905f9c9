package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The SQL of the mempool, all through the generic mapper. */
@JdbcRepository(dialect = Dialect.POSTGRES)
abstract class MempoolStore implements GenericRepository<MempoolTxRow, String> {

    static final String FIND_BY_TX_IDS = "SELECT " + MempoolTxRow.COLUMNS + " FROM mempool_txs m"
            + " WHERE m.tx_id IN (:txIds)";

    /**
     * Pending transactions concerning a principal, newest first. Receipt times are whole seconds and
     * a node delivers many transactions in one payload: ties are ordered by tx_id so that pages are
     * stable and both databases agree (index mempool_principals_recent_idx has the same order).
     */
    static final String FIND_PENDING_FOR = "SELECT " + MempoolTxRow.COLUMNS + " FROM mempool_principals p"
            + " JOIN mempool_txs m ON m.tx_id = p.tx_id WHERE p.principal = :principal"
            + " ORDER BY p.receipt_time DESC, p.tx_id LIMIT :limit OFFSET :offset";

    static final String COUNT_PENDING_FOR = "SELECT pending_count FROM mempool_principal_stats"
            + " WHERE principal = :principal";

    /** The newest pending deployment of a contract. */
    static final String FIND_PENDING_DEPLOY = "SELECT " + MempoolTxRow.COLUMNS + " FROM mempool_txs m"
            + " WHERE m.contract_id = :contractId AND m.tx_type = 'smart_contract' AND m.pruned = FALSE"
            + " ORDER BY m.receipt_time DESC LIMIT 1";

    @Query(FIND_BY_TX_IDS)
    abstract List<MempoolTxRow> findByTxIds(Collection<String> txIds);

    @Query(FIND_PENDING_FOR)
    abstract List<MempoolTxRow> findPendingFor(String principal, int limit, int offset);

    @Query(COUNT_PENDING_FOR)
    abstract Optional<Long> countPendingFor(String principal);

    @Query(FIND_PENDING_DEPLOY)
    abstract Optional<MempoolTxRow> findPendingDeploy(String contractId);
}
