package io.stacksexplorer.query;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.math.BigDecimal;

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
        long executionCostWriteLength) {

    static final String COLUMNS = """
            tx_id, index_block_hash, block_hash, block_height, block_time, burn_block_time, burn_block_height,
            parent_burn_block_time, parent_block_hash, tx_index, microblock_hash, microblock_sequence, is_unanchored,
            canonical, microblock_canonical, tx_status, fee_rate, raw_tx, raw_result, event_count,
            execution_cost_read_count, execution_cost_read_length, execution_cost_runtime,
            execution_cost_write_count, execution_cost_write_length""";
}
