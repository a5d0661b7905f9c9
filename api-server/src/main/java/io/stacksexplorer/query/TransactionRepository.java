package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.Collection;
import java.util.List;

/** Reads of mined transactions and their events. */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface TransactionRepository extends GenericRepository<TxRow, String> {

    /** Canonical mined rows of the given ids; unanchored microblock rows only when asked. */
    @Query("SELECT " + TxRow.COLUMNS + " FROM txs WHERE tx_id IN (:txIds) AND canonical = TRUE"
            + " AND microblock_canonical = TRUE AND (is_unanchored = FALSE OR :unanchored = TRUE)")
    List<TxRow> findCanonical(Collection<String> txIds, boolean unanchored);

    /** Mined rows of the given ids on any fork, newest first (for a status a reorg left behind). */
    @Query("SELECT " + TxRow.COLUMNS + " FROM txs WHERE tx_id IN (:txIds) ORDER BY block_height DESC")
    List<TxRow> findAnyFork(Collection<String> txIds);

    @Query("SELECT " + TxRow.COLUMNS + " FROM txs WHERE tx_id = :txId AND index_block_hash = :indexBlockHash")
    List<TxRow> findInBlock(String txId, String indexBlockHash);

    @Query("SELECT " + EventRow.COLUMNS + " FROM tx_events WHERE tx_id = :txId AND index_block_hash = :indexBlockHash"
            + " ORDER BY event_index LIMIT :limit OFFSET :offset")
    List<EventRow> findEvents(String txId, String indexBlockHash, int limit, int offset);
}
