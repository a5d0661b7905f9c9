package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.sql.ResultSet;
import java.sql.SQLException;

/** A row of {@code mempool_txs}. */
@MappedEntity(value = "mempool_txs", namingStrategy = ColumnNames.class)
public record MempoolTxRow(
        @Id String txId,
        String rawTx,
        long receiptTime,
        String txStatus,
        boolean pruned,
        @Nullable String replacedByTxId) {

    static final String COLUMNS = "m.tx_id, m.raw_tx, m.receipt_time, m.tx_status, m.pruned, m.replaced_by_tx_id";
    /** How many columns {@link #COLUMNS} names: a query's own columns after them start at {@code WIDTH + 1}. */
    static final int WIDTH = COLUMNS.split(",").length;

    /** The row from {@link #COLUMNS} read at column {@code at} onward (plain-JDBC reads, {@link PlainJdbc}). */
    static MempoolTxRow read(ResultSet rs, int at) throws SQLException {
        return new MempoolTxRow(rs.getString(at), rs.getString(at + 1), rs.getLong(at + 2), rs.getString(at + 3),
                rs.getBoolean(at + 4), rs.getString(at + 5));
    }
}
