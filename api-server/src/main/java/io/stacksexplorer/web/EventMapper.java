package io.stacksexplorer.web;

import io.stacksexplorer.query.EventRow;
import io.stacksexplorer.server.model.AssetEventAction;
import io.stacksexplorer.server.model.AssetEventData;
import io.stacksexplorer.server.model.ClarityValueHex;
import io.stacksexplorer.server.model.ContractLog;
import io.stacksexplorer.server.model.EventType;
import io.stacksexplorer.server.model.StxLockEventData;
import io.stacksexplorer.server.model.TransactionEvent;

/** Maps stored events to the API's {@code TransactionEvent}. */
final class EventMapper {

    private EventMapper() {
    }

    static TransactionEvent toApi(EventRow row) {
        EventType type = EventType.fromValue(row.eventType());
        TransactionEvent event = new TransactionEvent(row.eventIndex(), type, row.txId());
        switch (type) {
            case SMART_CONTRACT_LOG -> event.setContractLog(
                    new ContractLog(row.contractId(), row.topic(), clarity(row.valueHex())));
            case STX_LOCK -> event.setStxLockEvent(new StxLockEventData(row.lockedAmount().toPlainString(),
                    row.unlockHeight(), row.lockedAddress()));
            default -> {
                AssetEventData asset = new AssetEventData(AssetEventAction.fromValue(row.assetEventType()));
                asset.setAssetId(row.assetId());
                // Both parties are always present, as at the peer: a mint has no sender and a burn no
                // recipient, rendered as "" (clients read both fields unconditionally).
                asset.setSender(row.sender() == null ? "" : row.sender());
                asset.setRecipient(row.recipient() == null ? "" : row.recipient());
                if (row.amount() != null) {
                    asset.setAmount(row.amount().toPlainString());
                }
                if (row.valueHex() != null) {
                    asset.setValue(clarity(row.valueHex()));
                }
                asset.setMemo(row.memo());
                event.setAsset(asset);
            }
        }
        return event;
    }

    /** A serialized Clarity value with its {@code repr}. */
    static ClarityValueHex clarity(String hex) {
        return Renderings.clarity(hex);
    }
}
