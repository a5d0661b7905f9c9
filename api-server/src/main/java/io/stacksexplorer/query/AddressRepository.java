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

    /**
     * The served rows at positions (below, top], newest first: a range on principal_txs_position_idx
     * whose cost does not depend on how deep the page is (migration V10).
     */
    @Query("SELECT " + AddressTxRow.COLUMNS + " FROM principal_txs p WHERE p.principal = :principal"
            + " AND p.history_position <= :top AND p.history_position > :below"
            + " ORDER BY p.history_position DESC")
    List<AddressTxRow> findHistoryRange(String principal, long top, long below);

    /** The current position of a served row, when it is still served. */
    @Query("SELECT history_position FROM principal_txs WHERE principal = :principal AND tx_id = :txId"
            + " AND canonical = TRUE AND microblock_canonical = TRUE")
    Optional<Long> findPosition(String principal, String txId);

    @Query("SELECT tx_count FROM principal_stats WHERE principal = :principal")
    Optional<Long> countHistory(String principal);
}
