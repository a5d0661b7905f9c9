package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.List;
import java.util.Optional;

/** Counters and positions of the per-principal index; its pages are read by {@link DirectReads}. */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface AddressRepository extends GenericRepository<AddressTxRow, String> {

    /** The current position of a served row, when it is still served. */
    @Query("SELECT history_position FROM principal_txs WHERE principal = :principal AND tx_id = :txId"
            + " AND canonical = TRUE AND microblock_canonical = TRUE")
    Optional<Long> findPosition(String principal, String txId);

    @Query("SELECT tx_count FROM principal_stats WHERE principal = :principal")
    Optional<Long> countHistory(String principal);
}
