package io.stacksexplorer.query;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A row of {@code smart_contracts}: one mined deployment attempt, without its ABI (the ABIs come from
 * the cache by deployment, {@link ContractQueries#abisOf}, so a status read carries no ABI text).
 */
@MappedEntity(value = "smart_contracts", namingStrategy = ColumnNames.class)
public record ContractDeployRow(
        @Id String contractId,
        String txId,
        long blockHeight,
        String txStatus) {

    static final String COLUMNS = "contract_id, tx_id, block_height, tx_status";

    /** The row from {@link #COLUMNS} read at column {@code at} onward (plain-JDBC reads, {@link PlainJdbc}). */
    static ContractDeployRow read(ResultSet rs, int at) throws SQLException {
        return new ContractDeployRow(rs.getString(at), rs.getString(at + 1), rs.getLong(at + 2), rs.getString(at + 3));
    }
}
