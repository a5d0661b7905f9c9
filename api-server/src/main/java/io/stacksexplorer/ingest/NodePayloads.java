package io.stacksexplorer.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.write.HeldTransaction;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewMicroblocks;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.PoxUnlockHeights;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the stacks-node event-observer JSON into the write path's records. Everything is checked
 * here, before anything is written: a payload that fails here is a 400 and leaves no trace.
 */
final class NodePayloads {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(NodePayloads.class);

    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What the node sends as raw_tx for a Bitcoin-originated operation, described in its {@code burnchain_op}
     * ({@link BurnchainOperations}). A "0x00" without that description is no transaction at all: it is
     * read like any other raw_tx and so refused (its txid is not the bytes' hash).
     */
    static final String BURNCHAIN_OP_RAW_TX = "0x00";

    private NodePayloads() {
    }

    record Block(NewBlock block, PoxUnlockHeights pox) {
    }

    /** @param newTxId the node's {@code new_txid}: what replaced the dropped transactions, or null */
    record Drop(List<String> txIds, String status, String newTxId) {
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
        NodeTransactions.Events events = NodeTransactions.events(b);
        List<NewTransaction> txs = new ArrayList<>();
        List<HeldTransaction> held = new ArrayList<>();
        String where = "block " + b.path("block_height").asText() + " (" + b.path("index_block_hash").asText() + ")";
        for (JsonNode tx : array(b, "transactions")) {
            NodeTransactions.Receipt receipt = BurnchainOperations.isOperation(tx)
                    ? BurnchainOperations.receipt(tx, events, where) : NodeTransactions.receipt(tx, events, where);
            if (receipt.held() != null) {
                held.add(receipt.held());
            } else {
                txs.add(receipt.transaction());
            }
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
                hash(b, "miner_txid"), txs, nullableNumber(b, "tenure_height"), held);
        PoxUnlockHeights pox = new PoxUnlockHeights(nullableNumber(b, "pox_v1_unlock_height"),
                nullableNumber(b, "pox_v2_unlock_height"), nullableNumber(b, "pox_v3_unlock_height"));
        return new Block(block, pox);
    }


    static NewMicroblocks microblocks(JsonNode b, long receivedAt) {
        requireObject(b, "/new_microblocks");
        NodeTransactions.Events events = NodeTransactions.events(b);
        List<NewTransaction> txs = new ArrayList<>();
        Map<String, String> parentHashes = new HashMap<>();
        for (JsonNode tx : array(b, "transactions")) {
            if (!BurnchainOperations.isOperation(tx)) {
                // One this build cannot read is left out here (logged): it is held in the anchor block
                // that confirms the stream, which carries it again.
                NewTransaction t = NodeTransactions.receipt(tx, events, "microblock of " + b.path("parent_index_block_hash")
                        .asText()).transaction();
                if (t == null) {
                    continue;
                }
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
        return NodeTransactions.mempool(b, receivedAt);
    }

    static Drop drop(JsonNode b) {
        requireObject(b, "/drop_mempool_tx");
        List<String> ids = new ArrayList<>();
        for (JsonNode id : array(b, "dropped_txids")) {
            ids.add(normalizeHash(id.asText(), "dropped_txids"));
        }
        String reason = text(b, "reason");
        String status = droppedStatus(reason);
        if (status == null) {
            LOG.warn("/drop_mempool_tx: reason {} unknown to this build; {} transaction(s) stay pending until the"
                    + " mempool's garbage collection", reason, ids.size());
        }
        JsonNode newTxId = b.get("new_txid");
        return new Drop(ids, status, newTxId == null || newTxId.isNull() ? null : hash(b, "new_txid"));
    }

    /**
     * The node's drop reasons as the API's tx_status values; {@code null} for a reason this build does not
     * know yet: the drop is then stored, logged and not applied (the transactions stay pending until the
     * mempool's garbage collection), instead of refusing the payload and stalling the node.
     */
    static String droppedStatus(String reason) {
        return switch (reason) {
            case "ReplaceByFee" -> "dropped_replace_by_fee";
            case "ReplaceAcrossFork" -> "dropped_replace_across_fork";
            case "TooExpensive" -> "dropped_too_expensive";
            case "StaleGarbageCollect" -> "dropped_stale_garbage_collect";
            case "Problematic" -> "dropped_problematic";
            default -> null;
        };
    }

    // ------------------------------------------------------------------------------------------

    private static void requireObject(JsonNode b, String what) {
        if (!b.isObject()) {
            throw new MalformedPayloadException(what + ": expected a JSON object");
        }
    }

    static Iterable<JsonNode> array(JsonNode b, String field) {
        JsonNode node = b.get(field);
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new MalformedPayloadException(field + " is not an array");
        }
        return node;
    }

    static String text(JsonNode b, String field) {
        JsonNode node = b.get(field);
        if (node == null || node.isNull() || node.isContainerNode()) {
            throw new MalformedPayloadException("missing or invalid field " + field);
        }
        return node.asText();
    }

    static long number(JsonNode b, String field) {
        JsonNode node = b.get(field);
        if (node == null || !(node.isIntegralNumber() || node.isTextual() && node.asText().matches("-?\\d+"))) {
            throw new MalformedPayloadException("missing or invalid number " + field);
        }
        return node.asLong();
    }

    static long optionalNumber(JsonNode b, String field, long fallback) {
        JsonNode node = b.get(field);
        return node == null || node.isNull() ? fallback : number(b, field);
    }

    private static Long nullableNumber(JsonNode b, String field) {
        JsonNode node = b.get(field);
        return node == null || node.isNull() ? null : number(b, field);
    }

    static String hash(JsonNode b, String field) {
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
