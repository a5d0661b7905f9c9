package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

/** Reads of the single chain_state row. */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface ChainStateRepository extends GenericRepository<ChainStateRow, Integer> {

    @Query("""
            SELECT id, block_height, block_hash, index_block_hash, burn_block_height, microblock_hash,
                microblock_sequence, pox_v1_unlock_height, pox_v2_unlock_height, pox_v3_unlock_height, mempool_version
            FROM chain_state WHERE id = 1""")
    ChainStateRow find();
}
