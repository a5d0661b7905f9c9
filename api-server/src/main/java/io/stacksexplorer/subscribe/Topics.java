package io.stacksexplorer.subscribe;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.web.ChangePayloads;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Parses what a client asks to watch, with the same rules as the HTTP routes' parameters. */
final class Topics {

    /** The peer's other events, over data this API does not serve. */
    private static final Set<String> NOT_SERVED = Set.of("address_balance_update", "nft_event", "nft_asset_event",
            "nft_collection_event");
    private static final Pattern HASH = Pattern.compile("^(0[xX])?[0-9a-fA-F]{64}$");

    /** A parameter the client got wrong. */
    static final class Invalid extends RuntimeException {
        final String parameter;

        Invalid(String parameter, String message) {
            super(message, null, false, false);
            this.parameter = parameter;
        }
    }

    private Topics() {
    }

    /** {@code block}, {@code mempool} or {@code microblock}, which take no key. */
    static Topic event(String event) {
        if (event == null) {
            throw new Invalid("event", "event is required");
        }
        return switch (event) {
            case ChangePayloads.BLOCK, ChangePayloads.MEMPOOL, ChangePayloads.MICROBLOCK -> new Topic(event, null);
            default -> throw unknown(event);
        };
    }

    static Topic of(String event, String txId, String address) {
        if (ChangePayloads.TX_UPDATE.equals(event)) {
            return txUpdate(txId);
        }
        if (ChangePayloads.ADDRESS_TX_UPDATE.equals(event)) {
            return addressTxUpdate(address);
        }
        return event(event);
    }

    static Topic txUpdate(String txId) {
        if (txId == null || !HASH.matcher(txId).matches()) {
            throw new Invalid("tx_id", "tx_id must be 64 hex digits with or without 0x, got " + quoted(txId));
        }
        String lower = txId.toLowerCase(Locale.ROOT);
        return new Topic(ChangePayloads.TX_UPDATE, lower.startsWith("0x") ? lower : "0x" + lower);
    }

    static Topic addressTxUpdate(String address) {
        Principal principal;
        try {
            principal = Principal.parse(address);
        } catch (CodecException e) {
            throw new Invalid("address", quoted(address) + " is not a valid address or contract id: " + e.getMessage());
        }
        StacksAddress a = principal instanceof ContractId contract ? contract.address() : (StacksAddress) principal;
        if (!a.isMainnet() && !a.isTestnet()) {
            throw new Invalid("address", quoted(address) + " is neither a mainnet nor a testnet address");
        }
        return new Topic(ChangePayloads.ADDRESS_TX_UPDATE, principal.toString());
    }

    private static Invalid unknown(String event) {
        if (NOT_SERVED.contains(event)) {
            return new Invalid("event", "event '" + event + "' is not offered by this server");
        }
        return new Invalid("event", "unknown event '" + event + "'; expected block, mempool, microblock, tx_update"
                + " or address_tx_update");
    }

    private static String quoted(String s) {
        return s == null ? "nothing" : "'" + (s.length() > 100 ? s.substring(0, 100) + "…" : s) + "'";
    }
}
