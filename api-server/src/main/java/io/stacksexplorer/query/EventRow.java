package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.math.BigDecimal;

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
}
