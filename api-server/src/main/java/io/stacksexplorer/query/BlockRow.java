package io.stacksexplorer.query;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

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
        boolean canonical) {
}
