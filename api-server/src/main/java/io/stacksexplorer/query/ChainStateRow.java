package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

/** The single {@code chain_state} row: chain tip (null before the first block) and network facts. */
@MappedEntity(value = "chain_state", namingStrategy = ColumnNames.class)
public record ChainStateRow(
        @Id int id,
        @Nullable Long blockHeight,
        @Nullable String blockHash,
        @Nullable String indexBlockHash,
        @Nullable Long burnBlockHeight,
        @Nullable String microblockHash,
        @Nullable Integer microblockSequence,
        @Nullable Long poxV1UnlockHeight,
        @Nullable Long poxV2UnlockHeight,
        @Nullable Long poxV3UnlockHeight,
        long mempoolVersion) {
}
