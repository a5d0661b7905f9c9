package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.List;
import java.util.Optional;

/** Reads of the per-principal transaction index and its counters. */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface AddressRepository extends GenericRepository<AddressTxRow, String> {

    /** One index range scan over principal_txs_history_idx. */
    @Query("SELECT " + AddressTxRow.COLUMNS + " FROM principal_txs p WHERE p.principal = :principal"
            + " AND p.canonical = TRUE AND p.microblock_canonical = TRUE"
            + " ORDER BY p.block_height DESC, p.microblock_sequence DESC, p.tx_index DESC LIMIT :limit OFFSET :offset")
    List<AddressTxRow> findHistory(String principal, int limit, int offset);

    @Query("SELECT tx_count FROM principal_stats WHERE principal = :principal")
    Optional<Long> countHistory(String principal);
}
