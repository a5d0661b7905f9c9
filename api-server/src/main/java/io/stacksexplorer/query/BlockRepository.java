package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import java.util.Optional;

/**
 * Reads of {@code blocks}; canonical blocks only. H2 runs in PostgreSQL mode, so one dialect
 * serves both databases.
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface BlockRepository extends GenericRepository<BlockRow, String> {

    String COLUMNS = """
            index_block_hash, block_hash, block_height, parent_block_hash, parent_index_block_hash, block_time,
            burn_block_time, burn_block_hash, burn_block_height, miner_txid, tx_count, execution_cost_read_count,
            execution_cost_read_length, execution_cost_runtime, execution_cost_write_count,
            execution_cost_write_length, canonical""";

    @Query("SELECT " + COLUMNS + " FROM blocks WHERE block_height = :height AND canonical = TRUE")
    Optional<BlockRow> findCanonicalByHeight(long height);

    /** A hash names either the block hash or the index block hash. */
    @Query("SELECT " + COLUMNS + " FROM blocks WHERE (block_hash = :hash OR index_block_hash = :hash)"
            + " AND canonical = TRUE ORDER BY block_height DESC LIMIT 1")
    Optional<BlockRow> findCanonicalByHash(String hash);

    @Query("SELECT " + COLUMNS + " FROM blocks WHERE canonical = TRUE ORDER BY block_height DESC LIMIT 1")
    Optional<BlockRow> findLatest();
}
