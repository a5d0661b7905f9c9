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

    /**
     * The current position of a served row, when it is still served. The history's key leads with
     * the block (migration V104), so the transaction's blocks come from its own key first.
     */
    @Query("SELECT p.history_position FROM txs t JOIN principal_txs p ON p.index_block_hash = t.index_block_hash"
            + " AND p.principal = :principal AND p.tx_id = t.tx_id"
            + " WHERE t.tx_id = :txId AND p.canonical = TRUE AND p.microblock_canonical = TRUE")
    Optional<Long> findPosition(String principal, String txId);

    @Query("SELECT tx_count FROM principal_stats WHERE principal = :principal")
    Optional<Long> countHistory(String principal);
}
