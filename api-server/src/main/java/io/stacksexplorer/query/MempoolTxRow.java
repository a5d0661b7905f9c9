package io.stacksexplorer.query;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

/** A row of {@code mempool_txs}. */
@MappedEntity(value = "mempool_txs", namingStrategy = ColumnNames.class)
public record MempoolTxRow(
        @Id String txId,
        String rawTx,
        long receiptTime,
        String txStatus,
        boolean pruned) {

    static final String COLUMNS = "m.tx_id, m.raw_tx, m.receipt_time, m.tx_status, m.pruned";
}
