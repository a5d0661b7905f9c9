package io.stacksexplorer.write;

import java.math.BigInteger;

/** A committed event of a mined transaction. Principals are c32 addresses or contract ids. */
public sealed interface NewEvent {

    /** What happened to an asset, with the names the API serves. */
    enum AssetAction {
        TRANSFER("transfer"), MINT("mint"), BURN("burn");

        private final String apiName;

        AssetAction(String apiName) {
            this.apiName = apiName;
        }

        public String apiName() {
            return apiName;
        }
    }

    /** A Clarity {@code print}; {@code valueHex} is the serialized Clarity value. */
    record ContractLog(String contractId, String topic, String valueHex) implements NewEvent {
    }

    /** {@code sender} is null for a mint, {@code recipient} for a burn; {@code memo} is {@code 0x}-hex or null. */
    record StxAsset(AssetAction action, String sender, String recipient, BigInteger amount, String memo)
            implements NewEvent {
    }

    /** {@code assetId} is {@code <contract_id>::<token-name>}. */
    record FungibleAsset(AssetAction action, String assetId, String sender, String recipient, BigInteger amount)
            implements NewEvent {
    }

    /** {@code valueHex} is the serialized Clarity value identifying the token. */
    record NonFungibleAsset(AssetAction action, String assetId, String sender, String recipient, String valueHex)
            implements NewEvent {
    }

    record StxLock(BigInteger lockedAmount, long unlockHeight, String lockedAddress) implements NewEvent {
    }

    /** The API's {@code event_type} of this event. */
    default String eventType() {
        if (this instanceof ContractLog) {
            return "smart_contract_log";
        } else if (this instanceof StxAsset) {
            return "stx_asset";
        } else if (this instanceof FungibleAsset) {
            return "fungible_token_asset";
        } else if (this instanceof NonFungibleAsset) {
            return "non_fungible_token_asset";
        }
        return "stx_lock";
    }
}
