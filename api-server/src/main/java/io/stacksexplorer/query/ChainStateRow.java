package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.sql.ResultSet;
import java.sql.SQLException;

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

    static final String COLUMNS = """
            id, block_height, block_hash, index_block_hash, burn_block_height, microblock_hash, microblock_sequence,
            pox_v1_unlock_height, pox_v2_unlock_height, pox_v3_unlock_height, mempool_version""";

    /** The row from {@link #COLUMNS} read at column {@code at} onward (plain-JDBC reads, {@link PlainJdbc}). */
    static ChainStateRow read(ResultSet rs, int at) throws SQLException {
        return new ChainStateRow(rs.getInt(at), nullableLong(rs, at + 1), rs.getString(at + 2), rs.getString(at + 3),
                nullableLong(rs, at + 4), rs.getString(at + 5), nullableInt(rs, at + 6), nullableLong(rs, at + 7),
                nullableLong(rs, at + 8), nullableLong(rs, at + 9), rs.getLong(at + 10));
    }

    private static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    private static Integer nullableInt(ResultSet rs, int column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? null : value;
    }
}
