package io.stacksexplorer.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewMicroblocks;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.PoxUnlockHeights;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the stacks-node event-observer JSON into the write path's records. Everything is checked
 * here, before anything is written: a payload that fails here is a 400 and leaves no trace.
 */
final class NodePayloads {

    static final ObjectMapper JSON = new ObjectMapper();

    /** What the node sends as raw_tx for burnchain operations (no Stacks transaction to decode). */
    static final String BURNCHAIN_OP_RAW_TX = "0x00";

    private NodePayloads() {
    }

    record Block(NewBlock block, PoxUnlockHeights pox, int skippedBurnchainOps) {
    }

    record Drop(List<String> txIds, String status) {
    }

    static JsonNode parse(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw new MalformedPayloadException("empty body");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new MalformedPayloadException("malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    static Block block(JsonNode b) {
        requireObject(b, "/new_block");
        List<JsonNode> txNodes = new ArrayList<>();
        int skipped = 0;
        for (JsonNode tx : array(b, "transactions")) {
            if (isBurnchainOperation(tx)) {
                skipped++;
            } else {
                txNodes.add(tx);
            }
        }
        Map<String, List<NewEvent>> events = events(b);
        List<NewTransaction> txs = new ArrayList<>();
        for (JsonNode tx : txNodes) {
            txs.add(transaction(tx, events));
        }
        long burnBlockTime = number(b, "burn_block_time");
        JsonNode blockTime = b.get("block_time");
        // Pre-Nakamoto payloads carry no block time: the burn block time stands in (as at the peer
        // during a replay), which also keeps a rebuild deterministic.
        long time = blockTime == null || blockTime.isNull() ? burnBlockTime : blockTime.asLong();
        JsonNode parentBurnTime = b.get("parent_burn_block_timestamp");
        NewBlock block = new NewBlock(hash(b, "block_hash"), hash(b, "index_block_hash"), number(b, "block_height"),
                hash(b, "parent_block_hash"), hash(b, "parent_index_block_hash"),
                hash(b, "parent_microblock"), (int) optionalNumber(b, "parent_microblock_sequence", 0),
                time, burnBlockTime, hash(b, "burn_block_hash"), number(b, "burn_block_height"),
                parentBurnTime == null || parentBurnTime.isNull() ? 0 : parentBurnTime.asLong(),
                hash(b, "miner_txid"), txs, nullableNumber(b, "tenure_height"));
        PoxUnlockHeights pox = new PoxUnlockHeights(nullableNumber(b, "pox_v1_unlock_height"),
                nullableNumber(b, "pox_v2_unlock_height"), nullableNumber(b, "pox_v3_unlock_height"));
        return new Block(block, pox, skipped);
    }

    /**
     * A burnchain operation (stack-stx, transfer-stx, … sent through Bitcoin): the node writes
     * {@code raw_tx} "0x00" and describes the operation in {@code burnchain_op}. A "0x00" without
     * that description is no transaction at all: it is decoded like any other raw_tx and so refused
     * (the whole payload is a 400), instead of the transaction silently going missing from its block.
     */
    private static boolean isBurnchainOperation(JsonNode tx) {
        JsonNode op = tx.get("burnchain_op");
        return BURNCHAIN_OP_RAW_TX.equals(text(tx, "raw_tx")) && op != null && op.isObject();
    }

    static NewMicroblocks microblocks(JsonNode b, long receivedAt) {
        requireObject(b, "/new_microblocks");
        Map<String, List<NewEvent>> events = events(b);
        List<NewTransaction> txs = new ArrayList<>();
        Map<String, String> parentHashes = new HashMap<>();
        for (JsonNode tx : array(b, "transactions")) {
            if (!isBurnchainOperation(tx)) {
                NewTransaction t = transaction(tx, events);
                if (!t.inMicroblock()) {
                    throw new MalformedPayloadException("microblock transaction " + t.txId() + " has no microblock_hash");
                }
                txs.add(t);
                JsonNode parent = tx.get("microblock_parent_hash");
                if (parent != null && parent.isTextual()) {
                    parentHashes.put(t.microblockHash(), normalizeHash(parent.asText(), "microblock_parent_hash"));
                }
            }
        }
        long burnTime = optionalNumber(b, "burn_block_timestamp", -1);
        JsonNode burnHash = b.get("burn_block_hash");
        NewMicroblocks.BurnBlock burn = burnHash == null || !burnHash.isTextual() || !b.has("burn_block_height") ? null
                : new NewMicroblocks.BurnBlock(normalizeHash(burnHash.asText(), "burn_block_hash"),
                number(b, "burn_block_height"), burnTime);
        return new NewMicroblocks(hash(b, "parent_index_block_hash"), burnTime, receivedAt, txs, burn, parentHashes);
    }

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
            StacksTransaction decoded = decode(hex, "mempool transaction");
            txs.add(new NewMempoolTransaction(hex, receivedAt, decoded.txId(), CodecTxDecoder.facts(decoded)));
        }
        return txs;
    }

    static Drop drop(JsonNode b) {
        requireObject(b, "/drop_mempool_tx");
        List<String> ids = new ArrayList<>();
        for (JsonNode id : array(b, "dropped_txids")) {
            ids.add(normalizeHash(id.asText(), "dropped_txids"));
        }
        return new Drop(ids, droppedStatus(text(b, "reason")));
    }

    /** The node's drop reasons as the API's tx_status values. */
    static String droppedStatus(String reason) {
        return switch (reason) {
            case "ReplaceByFee" -> "dropped_replace_by_fee";
            case "ReplaceAcrossFork" -> "dropped_replace_across_fork";
            case "TooExpensive" -> "dropped_too_expensive";
            case "StaleGarbageCollect" -> "dropped_stale_garbage_collect";
            case "Problematic" -> "dropped_problematic";
            default -> throw new MalformedPayloadException("unknown drop reason: " + reason);
        };
    }

    // ------------------------------------------------------------------------------------------

    private static NewTransaction transaction(JsonNode tx, Map<String, List<NewEvent>> events) {
        String txId = hash(tx, "txid");
        String rawTx = normalizeHex(text(tx, "raw_tx"), "raw_tx");
        StacksTransaction decoded = decode(rawTx, txId);
        if (!decoded.txId().equals(txId)) {
            throw new MalformedPayloadException("txid " + txId + " does not match its raw_tx (" + decoded.txId() + ")");
        }
        TxOutcome status;
        try {
            status = TxOutcome.fromNode(text(tx, "status"));
        } catch (IllegalArgumentException e) {
            throw new MalformedPayloadException(e.getMessage(), e);
        }
        JsonNode cost = tx.get("execution_cost");
        ExecutionCost executionCost = cost == null || cost.isNull() ? ExecutionCost.ZERO
                : new ExecutionCost(cost.path("read_count").asLong(), cost.path("read_length").asLong(),
                cost.path("runtime").asLong(), cost.path("write_count").asLong(), cost.path("write_length").asLong());
        JsonNode mbHash = tx.get("microblock_hash");
        String microblockHash = mbHash == null || mbHash.isNull() ? null : normalizeHash(mbHash.asText(), "microblock_hash");
        JsonNode abi = tx.get("contract_abi");
        if (abi == null || abi.isNull()) {
            abi = tx.get("contract_interface");
        }
        String rawResult = normalizeHex(text(tx, "raw_result"), "raw_result");
        return new NewTransaction(txId, rawTx, (int) number(tx, "tx_index"), status, rawResult, executionCost,
                microblockHash, microblockHash == null ? 0 : (int) optionalNumber(tx, "microblock_sequence", 0),
                abi == null || abi.isNull() ? null : abi.toString(), events.getOrDefault(txId, List.of()),
                CodecTxDecoder.facts(decoded));
    }

    /** Committed events per transaction, in the node's order. */
    private static Map<String, List<NewEvent>> events(JsonNode b) {
        List<JsonNode> committed = new ArrayList<>();
        for (JsonNode e : array(b, "events")) {
            if (e.path("committed").asBoolean(true)) {
                committed.add(e);
            }
        }
        committed.sort(Comparator.comparingLong(e -> e.path("event_index").asLong()));
        Map<String, List<NewEvent>> byTx = new HashMap<>();
        for (JsonNode e : committed) {
            NewEvent event = event(e);
            if (event != null) {
                byTx.computeIfAbsent(normalizeHash(text(e, "txid"), "event txid"), k -> new ArrayList<>()).add(event);
            }
        }
        return byTx;
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
        try {
            io.stacksexplorer.codec.clarity.ClarityValue.decodeHex(hex);
        } catch (CodecException | IllegalArgumentException e) {
            throw new MalformedPayloadException(field + " is not a Clarity value: " + e.getMessage(), e);
        }
        return hex;
    }

    private static StacksTransaction decode(String rawHex, String what) {
        try {
            return StacksTransaction.decode(Hex.decode(rawHex));
        } catch (CodecException | IllegalArgumentException | ArithmeticException e) {
            throw new MalformedPayloadException("cannot decode " + what + ": " + e.getMessage(), e);
        }
    }

    private static BigInteger amount(JsonNode d, String field) {
        try {
            return new BigInteger(text(d, field));
        } catch (NumberFormatException e) {
            throw new MalformedPayloadException(field + " is not an integer: " + d.get(field), e);
        }
    }

    private static void requireObject(JsonNode b, String what) {
        if (!b.isObject()) {
            throw new MalformedPayloadException(what + ": expected a JSON object");
        }
    }

    private static Iterable<JsonNode> array(JsonNode b, String field) {
        JsonNode node = b.get(field);
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new MalformedPayloadException(field + " is not an array");
        }
        return node;
    }

    private static String text(JsonNode b, String field) {
        JsonNode node = b.get(field);
        if (node == null || node.isNull() || node.isContainerNode()) {
            throw new MalformedPayloadException("missing or invalid field " + field);
        }
        return node.asText();
    }

    private static long number(JsonNode b, String field) {
        JsonNode node = b.get(field);
        if (node == null || !(node.isIntegralNumber() || node.isTextual() && node.asText().matches("-?\\d+"))) {
            throw new MalformedPayloadException("missing or invalid number " + field);
        }
        return node.asLong();
    }

    private static long optionalNumber(JsonNode b, String field, long fallback) {
        JsonNode node = b.get(field);
        return node == null || node.isNull() ? fallback : number(b, field);
    }

    private static Long nullableNumber(JsonNode b, String field) {
        JsonNode node = b.get(field);
        return node == null || node.isNull() ? null : number(b, field);
    }

    private static String hash(JsonNode b, String field) {
        return normalizeHash(text(b, field), field);
    }

    static String normalizeHash(String text, String field) {
        String hex = normalizeHex(text.startsWith("0x") || text.startsWith("0X") ? text : "0x" + text, field);
        if (hex.length() != 66) {
            throw new MalformedPayloadException(field + " is not a 32-byte hash: " + text);
        }
        return hex;
    }

    static String normalizeHex(String text, String field) {
        String t = text.toLowerCase(Locale.ROOT);
        if (!t.startsWith("0x") || (t.length() % 2) != 0 || !Hex.isLowerHex(t, 2)) {
            throw new MalformedPayloadException(field + " is not 0x-prefixed hex: "
                    + (text.length() > 80 ? text.substring(0, 80) + "…" : text));
        }
        return t;
    }
}
