package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.Collection;
import java.util.List;

/** Reads of mined transactions; canonical lookups and event pages are in {@link DirectReads}. */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface TransactionRepository extends GenericRepository<TxRow, String> {

    /** Mined rows of the given ids on any fork, newest first (for a status a reorg left behind). */
    @Query("SELECT " + TxRow.COLUMNS + " FROM txs WHERE tx_id IN (:txIds) ORDER BY block_height DESC")
    List<TxRow> findAnyFork(Collection<String> txIds);
}
