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

    /**
     * The events of many transactions in one query: events {@code from .. to - 1} of each
     * (tx_id, index_block_hash) whose tx_id is given (the caller keeps the blocks it asked for). One
     * primary-key range per block, whatever the offset: event_index is the event's position within its
     * transaction (0..n-1, as served), so the page by position is the range by event_index.
     */
    @Query("SELECT " + BlockEventRow.COLUMNS + " FROM tx_events WHERE tx_id IN (:txIds)"
            + " AND event_index >= :from AND event_index < :to ORDER BY tx_id, index_block_hash, event_index")
    List<BlockEventRow> findEventPages(Collection<String> txIds, long from, long to);
}
