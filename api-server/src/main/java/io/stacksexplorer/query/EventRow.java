package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A row of {@code tx_events}; which columns are set depends on {@code eventType}. */
@MappedEntity(value = "tx_events", namingStrategy = ColumnNames.class)
public record EventRow(
        @Id String txId,
        int eventIndex,
        String eventType,
        @Nullable String contractId,
        @Nullable String topic,
        @Nullable String valueHex,
        @Nullable String assetEventType,
        @Nullable String assetId,
        @Nullable String sender,
        @Nullable String recipient,
        @Nullable BigDecimal amount,
        @Nullable String memo,
        @Nullable BigDecimal lockedAmount,
        @Nullable Long unlockHeight,
        @Nullable String lockedAddress) {

    static final String COLUMNS = """
            tx_id, event_index, event_type, contract_id, topic, value_hex, asset_event_type, asset_id, sender,
            recipient, amount, memo, locked_amount, unlock_height, locked_address""";

    /** The row from {@link #COLUMNS} read at column {@code at} onward (plain-JDBC reads, {@link PlainJdbc}). */
    static EventRow read(ResultSet rs, int at) throws SQLException {
        long unlockHeight = rs.getLong(at + 13);
        Long unlock = rs.wasNull() ? null : unlockHeight;
        return new EventRow(rs.getString(at), rs.getInt(at + 1), rs.getString(at + 2), rs.getString(at + 3),
                rs.getString(at + 4), rs.getString(at + 5), rs.getString(at + 6), rs.getString(at + 7),
                rs.getString(at + 8), rs.getString(at + 9), rs.getBigDecimal(at + 10), rs.getString(at + 11),
                rs.getBigDecimal(at + 12), unlock, rs.getString(at + 14));
    }
}
