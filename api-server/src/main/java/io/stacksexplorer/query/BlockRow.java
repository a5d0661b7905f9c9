package io.stacksexplorer.query;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.sql.ResultSet;
import java.sql.SQLException;

/** A row of {@code blocks}. */
@MappedEntity(value = "blocks", namingStrategy = ColumnNames.class)
public record BlockRow(
        @Id String indexBlockHash,
        String blockHash,
        long blockHeight,
        String parentBlockHash,
        String parentIndexBlockHash,
        long blockTime,
        long burnBlockTime,
        String burnBlockHash,
        long burnBlockHeight,
        String minerTxid,
        int txCount,
        long executionCostReadCount,
        long executionCostReadLength,
        long executionCostRuntime,
        long executionCostWriteCount,
        long executionCostWriteLength,
        boolean canonical,
        @io.micronaut.core.annotation.Nullable Long tenureHeight) {

    static final String COLUMNS = """
            index_block_hash, block_hash, block_height, parent_block_hash, parent_index_block_hash, block_time,
            burn_block_time, burn_block_hash, burn_block_height, miner_txid, tx_count, execution_cost_read_count,
            execution_cost_read_length, execution_cost_runtime, execution_cost_write_count,
            execution_cost_write_length, canonical, tenure_height""";

    /** The row from {@link #COLUMNS} read at column {@code at} onward (plain-JDBC reads, {@link PlainJdbc}). */
    static BlockRow read(ResultSet rs, int at) throws SQLException {
        return new BlockRow(rs.getString(at), rs.getString(at + 1), rs.getLong(at + 2), rs.getString(at + 3),
                rs.getString(at + 4), rs.getLong(at + 5), rs.getLong(at + 6), rs.getString(at + 7), rs.getLong(at + 8),
                rs.getString(at + 9), rs.getInt(at + 10), rs.getLong(at + 11), rs.getLong(at + 12), rs.getLong(at + 13),
                rs.getLong(at + 14), rs.getLong(at + 15), rs.getBoolean(at + 16), rs.getObject(at + 17, Long.class));
    }

    /**
     * The tenure height as served: the node's for a Nakamoto block; for a pre-Nakamoto block, whose
     * payload has none, its height (each such block began its own tenure with its coinbase).
     */
    public long servedTenureHeight() {
        return tenureHeight != null ? tenureHeight : blockHeight;
    }
}
