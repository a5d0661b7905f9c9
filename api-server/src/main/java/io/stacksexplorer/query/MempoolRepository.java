package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Reads of the mempool. */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface MempoolRepository extends GenericRepository<MempoolTxRow, String> {

    @Query("SELECT " + MempoolTxRow.COLUMNS + " FROM mempool_txs m WHERE m.tx_id IN (:txIds)")
    List<MempoolTxRow> findByTxIds(Collection<String> txIds);

    /**
     * Pending transactions concerning a principal, newest first. Receipt times are whole seconds and
     * a node delivers many transactions in one payload: ties are ordered by tx_id so that pages are
     * stable and both databases agree (index mempool_principals_recent_idx has the same order).
     */
    @Query("SELECT " + MempoolTxRow.COLUMNS + " FROM mempool_principals p JOIN mempool_txs m ON m.tx_id = p.tx_id"
            + " WHERE p.principal = :principal ORDER BY p.receipt_time DESC, p.tx_id LIMIT :limit OFFSET :offset")
    List<MempoolTxRow> findPendingFor(String principal, int limit, int offset);

    @Query("SELECT pending_count FROM mempool_principal_stats WHERE principal = :principal")
    Optional<Long> countPendingFor(String principal);

    /** The newest pending deployment of a contract. */
    @Query("SELECT " + MempoolTxRow.COLUMNS + " FROM mempool_txs m WHERE m.contract_id = :contractId"
            + " AND m.tx_type = 'smart_contract' AND m.pruned = FALSE ORDER BY m.receipt_time DESC LIMIT 1")
    Optional<MempoolTxRow> findPendingDeploy(String contractId);
}
