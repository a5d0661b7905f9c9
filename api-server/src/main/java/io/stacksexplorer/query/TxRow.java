package io.stacksexplorer.query;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A row of {@code txs}: a transaction as mined in one block. */
@MappedEntity(value = "txs", namingStrategy = ColumnNames.class)
public record TxRow(
        @Id String txId,
        String indexBlockHash,
        String blockHash,
        long blockHeight,
        long blockTime,
        long burnBlockTime,
        long burnBlockHeight,
        long parentBurnBlockTime,
        String parentBlockHash,
        int txIndex,
        String microblockHash,
        int microblockSequence,
        boolean isUnanchored,
        boolean canonical,
        boolean microblockCanonical,
        String txStatus,
        BigDecimal feeRate,
        String rawTx,
        String rawResult,
        int eventCount,
        long executionCostReadCount,
        long executionCostReadLength,
        long executionCostRuntime,
        long executionCostWriteCount,
        long executionCostWriteLength,
        String vmError) {

    static final String COLUMNS = """
            tx_id, index_block_hash, block_hash, block_height, block_time, burn_block_time, burn_block_height,
            parent_burn_block_time, parent_block_hash, tx_index, microblock_hash, microblock_sequence, is_unanchored,
            canonical, microblock_canonical, tx_status, fee_rate, raw_tx, raw_result, event_count,
            execution_cost_read_count, execution_cost_read_length, execution_cost_runtime,
            execution_cost_write_count, execution_cost_write_length, vm_error""";

    /** The row from {@link #COLUMNS} read at column {@code at} onward (plain-JDBC reads, {@link PlainJdbc}). */
    static TxRow read(ResultSet rs, int at) throws SQLException {
        return new TxRow(rs.getString(at), rs.getString(at + 1), rs.getString(at + 2), rs.getLong(at + 3),
                rs.getLong(at + 4), rs.getLong(at + 5), rs.getLong(at + 6), rs.getLong(at + 7), rs.getString(at + 8),
                rs.getInt(at + 9), rs.getString(at + 10), rs.getInt(at + 11), rs.getBoolean(at + 12),
                rs.getBoolean(at + 13), rs.getBoolean(at + 14), rs.getString(at + 15), rs.getBigDecimal(at + 16),
                rs.getString(at + 17), rs.getString(at + 18), rs.getInt(at + 19), rs.getLong(at + 20),
                rs.getLong(at + 21), rs.getLong(at + 22), rs.getLong(at + 23), rs.getLong(at + 24),
                rs.getString(at + 25));
    }
}
