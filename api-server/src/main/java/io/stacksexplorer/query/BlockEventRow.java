package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;

import java.math.BigDecimal;

/**
 * A row of {@code tx_events} with the block it belongs to, for reading the event pages of several
 * transactions in one query ({@link TransactionRepository#findEventPages}).
 */
@MappedEntity(value = "tx_events", namingStrategy = ColumnNames.class)
record BlockEventRow(
        @Id String txId,
        String indexBlockHash,
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

    static final String COLUMNS = "tx_id, index_block_hash, event_index, event_type, contract_id, topic, value_hex,"
            + " asset_event_type, asset_id, sender, recipient, amount, memo, locked_amount, unlock_height,"
            + " locked_address";

    EventRow event() {
        return new EventRow(txId, eventIndex, eventType, contractId, topic, valueHex, assetEventType, assetId, sender,
                recipient, amount, memo, lockedAmount, unlockHeight, lockedAddress);
    }
}
