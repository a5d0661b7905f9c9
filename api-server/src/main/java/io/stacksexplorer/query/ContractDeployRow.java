package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

/** A row of {@code smart_contracts}: one mined deployment attempt. */
@MappedEntity(value = "smart_contracts", namingStrategy = ColumnNames.class)
public record ContractDeployRow(
        @Id String contractId,
        String txId,
        long blockHeight,
        String txStatus,
        @Nullable String abi) {

    static final String COLUMNS = "contract_id, tx_id, block_height, tx_status, abi";
}
