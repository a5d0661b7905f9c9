package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.HeldTransaction;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.TxOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import static io.stacksexplorer.ingest.NodePayloads.hash;
import static io.stacksexplorer.ingest.NodePayloads.normalizeHash;
import static io.stacksexplorer.ingest.NodePayloads.normalizeHex;
import static io.stacksexplorer.ingest.NodePayloads.number;
import static io.stacksexplorer.ingest.NodePayloads.optionalNumber;
import static io.stacksexplorer.ingest.NodePayloads.text;

/**
 * A node's transaction receipts and events as the write path's records, and the line between what
 * is refused and what is held.
 *
 * <p>Refused (a 400, nothing stored): what no node sends, such as JSON of the wrong shape, text that is
 * not hex, a {@code txid} that is not the hash of its {@code raw_tx}. Held ({@link HeldTransaction}): a
 * well-formed transaction that this build cannot read yet: raw bytes its decoder stops in, a status it
 * does not know, a result or event value that is not a Clarity value it knows. A node resends a refused
 * payload forever, in order, so refusing what a newer node legitimately sends would stop indexing for
 * good; holding stores the block with everything else and names the transaction to the operator.
 */
final class NodeTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(NodeTransactions.class);

    /** Mempool transactions this process could not read and left out of their batch (a metric). */
    private static final LongAdder UNREADABLE_MEMPOOL = new LongAdder();

    /**
     * The wire decoder. Tests replace it for a while with one that does not know a feature yet, to stand
     * in for the build before an upgrade; everything else runs as it does in production.
     */
    private static volatile Function<byte[], StacksTransaction> decoder = StacksTransaction::decode;

    private NodeTransactions() {
    }

    /** Decodes with {@code older} until the returned handle is closed (tests: a build before an upgrade). */
    static AutoCloseable decodingAs(Function<byte[], StacksTransaction> older) {
        decoder = older;
        return () -> decoder = StacksTransaction::decode;
    }

    /** A receipt read: the transaction to write, or, when this build cannot read it, why it is held. */
    record Receipt(NewTransaction transaction, HeldTransaction held) {
    }

    /** The committed events of a payload per transaction, and the transactions one of whose events this build cannot read. */
    record Events(Map<String, List<NewEvent>> byTx, Map<String, String> unreadable) {
    }

    static long unreadableMempoolTransactions() {
        return UNREADABLE_MEMPOOL.sum();
    }

    static Receipt receipt(JsonNode tx, Events events, String where) {
        String txId = hash(tx, "txid");
        String rawTx = normalizeHex(text(tx, "raw_tx"), "raw_tx");
        byte[] raw = Hex.decode(rawTx);
        String status = text(tx, "status");
        int txIndex = (int) number(tx, "tx_index");
        String rawResult = normalizeHex(text(tx, "raw_result"), "raw_result");
        StacksTransaction decoded;
        try {
            decoded = decoder.apply(raw);
        } catch (CodecException | IllegalArgumentException | ArithmeticException e) {
            // Held only when the bytes are the transaction the node names; otherwise the payload is broken.
            requireItsId(txId, Sha512_256.txId(raw));
            int offset = e instanceof CodecException codec ? codec.offset() : -1;
            return hold(new HeldTransaction(txId, txIndex, status, "raw_tx: " + e.getMessage(), offset), where);
        }
        // The decoder hashed the bytes already: one SHA-512/256 per transaction on the ingest path.
        requireItsId(txId, decoded.txId());
        TxOutcome outcome = TxOutcome.fromNodeOrNull(status);
        if (outcome == null) {
            return hold(new HeldTransaction(txId, txIndex, status, "unknown transaction status " + status, -1), where);
        }
        String resultProblem = clarityProblem(rawResult);
        if (resultProblem != null) {
            return hold(new HeldTransaction(txId, txIndex, status, "raw_result: " + resultProblem, -1), where);
        }
        String eventProblem = events.unreadable().get(txId);
        if (eventProblem != null) {
            return hold(new HeldTransaction(txId, txIndex, status, eventProblem, -1), where);
        }
        JsonNode mbHash = tx.get("microblock_hash");
        String microblockHash = mbHash == null || mbHash.isNull() ? null : normalizeHash(mbHash.asText(), "microblock_hash");
        // contract_interface replaced contract_abi in 2025 nodes; either is the deployed contract's ABI.
        JsonNode abi = tx.get("contract_abi");
        if (abi == null || abi.isNull()) {
            abi = tx.get("contract_interface");
        }
        JsonNode vmError = tx.get("vm_error");
        return new Receipt(new NewTransaction(txId, rawTx, txIndex, outcome, rawResult, cost(tx),
                microblockHash, microblockHash == null ? 0 : (int) optionalNumber(tx, "microblock_sequence", 0),
                abi == null || abi.isNull() ? null : abi.toString(),
                vmError == null || vmError.isNull() ? null : withoutNul(vmError.asText()),
                events.byTx().getOrDefault(txId, List.of()), CodecTxDecoder.facts(decoded)), null);
    }

    private static void requireItsId(String txId, String hashOfRawTx) {
        if (!hashOfRawTx.equals(txId)) {
            throw new MalformedPayloadException("txid " + txId + " does not match its raw_tx (" + hashOfRawTx + ")");
        }
    }

    /** The receipt's {@code execution_cost}; zero when the node sends none. */
    static ExecutionCost cost(JsonNode tx) {
        JsonNode cost = tx.get("execution_cost");
        return cost == null || cost.isNull() ? ExecutionCost.ZERO
                : new ExecutionCost(cost.path("read_count").asLong(), cost.path("read_length").asLong(),
                cost.path("runtime").asLong(), cost.path("write_count").asLong(), cost.path("write_length").asLong());
    }

    /**
     * The VM's message quotes the failing value, which may hold U+0000 (a recorded mainnet receipt does);
     * PostgreSQL text cannot, so it is served as U+FFFD on either database.
     */
    static String withoutNul(String text) {
        return text.indexOf('\u0000') < 0 ? text : text.replace('\u0000', '\uFFFD');
    }

    static Receipt hold(HeldTransaction held, String where) {
        LOG.warn("{}: transaction {} (index {}, status {}) held, not served: this build cannot read it ({})."
                        + " Upgrade, then run `rebuild` to serve it (docs/operations.md: Held transactions)",
                where, held.txId(), held.txIndex(), held.status(), held.reason());
        return new Receipt(null, held);
    }

    /**
     * The readable transactions of a {@code /new_mempool_tx} batch; one this build cannot decode is left
     * out (logged and counted) and the rest are kept. The payload itself is stored verbatim, so a
     * {@code rebuild} with a build that reads it adds it.
     */
    static List<NewMempoolTransaction> mempool(JsonNode b, long receivedAt) {
        if (!b.isArray()) {
            throw new MalformedPayloadException("/new_mempool_tx: expected an array of raw transactions");
        }
        List<NewMempoolTransaction> txs = new ArrayList<>();
        for (JsonNode raw : b) {
            if (!raw.isTextual()) {
                throw new MalformedPayloadException("/new_mempool_tx: expected hex strings");
            }
            String hex = normalizeHex(raw.asText(), "raw transaction");
            byte[] bytes = Hex.decode(hex);
            try {
                StacksTransaction decoded = decoder.apply(bytes);
                txs.add(new NewMempoolTransaction(hex, receivedAt, decoded.txId(), CodecTxDecoder.facts(decoded)));
            } catch (CodecException | IllegalArgumentException | ArithmeticException e) {
                UNREADABLE_MEMPOOL.increment();
                LOG.warn("/new_mempool_tx: transaction {} left out, the rest of the batch kept: this build cannot"
                        + " read it ({})", Sha512_256.txId(bytes), e.getMessage());
            }
        }
        return txs;
    }

    /** Committed events per transaction, in the node's order. */
    static Events events(JsonNode b) {
        List<JsonNode> committed = new ArrayList<>();
        for (JsonNode e : NodePayloads.array(b, "events")) {
            if (e.path("committed").asBoolean(true)) {
                committed.add(e);
            }
        }
        committed.sort(Comparator.comparingLong(e -> e.path("event_index").asLong()));
        Map<String, List<NewEvent>> byTx = new HashMap<>();
        Map<String, String> unreadable = new HashMap<>();
        for (JsonNode e : committed) {
            String txId = normalizeHash(text(e, "txid"), "event txid");
            try {
                NewEvent event = event(e);
                if (event != null) {
                    byTx.computeIfAbsent(txId, k -> new ArrayList<>()).add(event);
                }
            } catch (UnreadableValueException u) {
                unreadable.putIfAbsent(txId, "event " + e.path("event_index").asLong() + ": " + u.getMessage());
            }
        }
        return new Events(byTx, unreadable);
    }

    private static NewEvent event(JsonNode e) {
        String type = text(e, "type");
        JsonNode d = e.path(type);
        if (!d.isObject()) {
            throw new MalformedPayloadException("event of type " + type + " without its " + type + " object");
        }
        return switch (type) {
            case "contract_event" -> new NewEvent.ContractLog(text(d, "contract_identifier"), text(d, "topic"),
                    clarityHex(d, "raw_value"));
            case "stx_transfer_event" -> new NewEvent.StxAsset(AssetAction.TRANSFER, text(d, "sender"),
                    text(d, "recipient"), amount(d, "amount"), memo(d));
            case "stx_mint_event" -> new NewEvent.StxAsset(AssetAction.MINT, null, text(d, "recipient"),
                    amount(d, "amount"), null);
            case "stx_burn_event" -> new NewEvent.StxAsset(AssetAction.BURN, text(d, "sender"), null,
                    amount(d, "amount"), null);
            case "stx_lock_event" -> new NewEvent.StxLock(amount(d, "locked_amount"),
                    amount(d, "unlock_height").longValueExact(), text(d, "locked_address"));
            case "ft_transfer_event" -> new NewEvent.FungibleAsset(AssetAction.TRANSFER, text(d, "asset_identifier"),
                    text(d, "sender"), text(d, "recipient"), amount(d, "amount"));
            case "ft_mint_event" -> new NewEvent.FungibleAsset(AssetAction.MINT, text(d, "asset_identifier"), null,
                    text(d, "recipient"), amount(d, "amount"));
            case "ft_burn_event" -> new NewEvent.FungibleAsset(AssetAction.BURN, text(d, "asset_identifier"),
                    text(d, "sender"), null, amount(d, "amount"));
            case "nft_transfer_event" -> new NewEvent.NonFungibleAsset(AssetAction.TRANSFER,
                    text(d, "asset_identifier"), text(d, "sender"), text(d, "recipient"), clarityHex(d, "raw_value"));
            case "nft_mint_event" -> new NewEvent.NonFungibleAsset(AssetAction.MINT, text(d, "asset_identifier"), null,
                    text(d, "recipient"), clarityHex(d, "raw_value"));
            case "nft_burn_event" -> new NewEvent.NonFungibleAsset(AssetAction.BURN, text(d, "asset_identifier"),
                    text(d, "sender"), null, clarityHex(d, "raw_value"));
            // Events the seven endpoints do not serve (e.g. stx_unlock_event in later nodes).
            default -> null;
        };
    }

    /** A well-formed hex value that is not a Clarity value this build reads: its transaction is held. */
    private static final class UnreadableValueException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnreadableValueException(String message) {
            super(message, null, false, false);
        }
    }

    private static String memo(JsonNode d) {
        JsonNode memo = d.get("memo");
        if (memo == null || memo.isNull()) {
            return null;
        }
        String text = memo.asText();
        return normalizeHex(text.startsWith("0x") ? text : "0x" + text, "memo");
    }

    private static String clarityHex(JsonNode d, String field) {
        String hex = normalizeHex(text(d, field), field);
        String problem = clarityProblem(hex);
        if (problem != null) {
            throw new UnreadableValueException(field + " is not a Clarity value this build reads: " + problem);
        }
        return hex;
    }

    /** Why {@code hex} is not a Clarity value this build reads, or {@code null} when it is one. */
    private static String clarityProblem(String hex) {
        try {
            ClarityValue.decodeHex(hex);
            return null;
        } catch (CodecException | IllegalArgumentException | ArithmeticException e) {
            return e.getMessage();
        }
    }

    private static BigInteger amount(JsonNode d, String field) {
        try {
            return new BigInteger(text(d, field));
        } catch (NumberFormatException e) {
            throw new MalformedPayloadException(field + " is not an integer: " + d.get(field), e);
        }
    }
}
