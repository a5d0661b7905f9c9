package io.stacksexplorer.generate;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.TxOutcome;

import java.io.IOException;
import java.util.List;

/** A block's {@code events} array as the node posts it: one object per event, by node event type. */
final class EventJson {

    private EventJson() {
    }

    /**
     * Events of all the payload's transactions, numbered across the payload as the node does. From
     * epoch 3.4 ({@code abortedSent} false) the node no longer sends the events of a transaction a
     * post condition aborted.
     */
    static void events(JsonGenerator g, List<NodeEventLog.Placed> txs, boolean abortedSent) throws IOException {
        g.writeArrayFieldStart("events");
        int index = 0;
        for (NodeEventLog.Placed p : txs) {
            GeneratedTx tx = p.tx();
            if (!abortedSent && tx.status() == TxOutcome.ABORT_BY_POST_CONDITION) {
                continue;
            }
            for (NewEvent e : tx.events()) {
                g.writeStartObject();
                g.writeStringField("txid", tx.txId());
                String type = nodeType(e);
                g.writeStringField("type", type);
                g.writeBooleanField("committed", tx.committed());
                g.writeNumberField("event_index", index++);
                g.writeObjectFieldStart(type);
                eventBody(g, e, tx.extra().lockContract());
                g.writeEndObject();
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }

    private static String nodeType(NewEvent e) {
        if (e instanceof NewEvent.ContractLog) {
            return "contract_event";
        } else if (e instanceof NewEvent.StxAsset a) {
            return "stx_" + a.action().apiName() + "_event";
        } else if (e instanceof NewEvent.FungibleAsset a) {
            return "ft_" + a.action().apiName() + "_event";
        } else if (e instanceof NewEvent.NonFungibleAsset a) {
            return "nft_" + a.action().apiName() + "_event";
        }
        return "stx_lock_event";
    }

    private static void eventBody(JsonGenerator g, NewEvent e, String lockContract) throws IOException {
        if (e instanceof NewEvent.ContractLog log) {
            g.writeStringField("contract_identifier", log.contractId());
            g.writeStringField("topic", log.topic());
            g.writeFieldName("value");
            ClaritySerdeJson.write(g, ClarityValue.decodeHex(log.valueHex()));
            g.writeStringField("raw_value", log.valueHex());
        } else if (e instanceof NewEvent.StxAsset a) {
            g.writeStringField("amount", a.amount().toString());
            if (a.sender() != null) {
                g.writeStringField("sender", a.sender());
            }
            if (a.recipient() != null) {
                g.writeStringField("recipient", a.recipient());
            }
            if (a.memo() != null) {
                // The node writes the memo as bare hex.
                g.writeStringField("memo", a.memo().substring(2));
            }
        } else if (e instanceof NewEvent.FungibleAsset a) {
            g.writeStringField("asset_identifier", a.assetId());
            g.writeStringField("amount", a.amount().toString());
            if (a.sender() != null) {
                g.writeStringField("sender", a.sender());
            }
            if (a.recipient() != null) {
                g.writeStringField("recipient", a.recipient());
            }
        } else if (e instanceof NewEvent.NonFungibleAsset a) {
            g.writeStringField("asset_identifier", a.assetId());
            g.writeFieldName("value");
            ClaritySerdeJson.write(g, ClarityValue.decodeHex(a.valueHex()));
            g.writeStringField("raw_value", a.valueHex());
            if (a.sender() != null) {
                g.writeStringField("sender", a.sender());
            }
            if (a.recipient() != null) {
                g.writeStringField("recipient", a.recipient());
            }
        } else if (e instanceof NewEvent.StxLock lock) {
            g.writeStringField("locked_amount", lock.lockedAmount().toString());
            g.writeStringField("unlock_height", Long.toString(lock.unlockHeight()));
            g.writeStringField("locked_address", lock.lockedAddress());
            // The node names the stacking contract that locked the funds (the generator's own calls: .pox).
            g.writeStringField("contract_identifier", lockContract != null ? lockContract : Traffic.POX_CONTRACT);
        }
    }
}
