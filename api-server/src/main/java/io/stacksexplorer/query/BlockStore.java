package io.stacksexplorer.query;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.util.Optional;

/** The SQL of canonical blocks, in plain JDBC (the cheap routes cost less than the generic mapper). */
@Singleton
class BlockStore {

    static final String LATEST_BLOCK = "SELECT " + BlockRow.COLUMNS + " FROM blocks WHERE canonical = TRUE"
            + " ORDER BY block_height DESC LIMIT 1";

    static final String BLOCK_AT_HEIGHT = "SELECT " + BlockRow.COLUMNS + " FROM blocks WHERE canonical = TRUE"
            + " AND block_height = ?";

    /** A block hash or an index block hash. */
    static final String BLOCK_BY_HASH = "SELECT " + BlockRow.COLUMNS + " FROM blocks WHERE canonical = TRUE"
            + " AND (block_hash = ? OR index_block_hash = ?) ORDER BY block_height DESC LIMIT 1";

    private final DataSource dataSource;

    BlockStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    Optional<BlockRow> latestBlock() {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", LATEST_BLOCK, ps -> { },
                rs -> BlockRow.read(rs, 1)));
    }

    Optional<BlockRow> blockAtHeight(long height) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", BLOCK_AT_HEIGHT, ps -> ps.setLong(1, height),
                rs -> BlockRow.read(rs, 1)));
    }

    Optional<BlockRow> blockByHash(String hash) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", BLOCK_BY_HASH, ps -> {
            ps.setString(1, hash);
            ps.setString(2, hash);
        }, rs -> BlockRow.read(rs, 1)));
    }
}
