package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.WireBuilder;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.tx.PostCondition;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.generate.Preset;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.IngestServer.Answer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.stacksexplorer.codec.WireBuilder.wire;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a 2026 node sends, through the live event observer: the epoch 3.4 / 4.0 receipts served with the
 * peer's shapes, and a transaction this build cannot read held (never refused: the node would resend
 * the payload forever and index nothing after it), then completed by {@code rebuild} after an upgrade.
 * The chain is the demo preset's first blocks; one block of it gets the crafted transactions.
 */
abstract class TodaysChainContract {

    private static final String SIGNER = "1779d78a9a68bc61911f1be6176960f164f3db48";
    private static final String OTHER = "a46ff88886c2ef9762d970b4d2c63678835bd39d";
    /** The first post condition's type byte in {@link #header}'s single-sig transactions. */
    private static final int FIRST_CONDITION_AT = 109 + 1 + 1 + 4;
    private static final List<String> DEMO_LINES = demoLines();

    abstract TestDatabase database();

    /** Mainnet single-sig P2PKH origin with the given nonce, fee 300. */
    private static WireBuilder header(long nonce) {
        return wire().u8(0x00).u32(1).u8(0x04).u8(0x00).hex(SIGNER).u64(nonce).u64(300).u8(0x00).fill(65, 0x11);
    }

    /** A token transfer guarded by a Staking post condition (SIP-044, epoch 4.0). */
    private static byte[] stakingGuardedTransfer() {
        return header(1).u8(0x03).u8(0x02).u32(1).u8(0x03).u8(0x01).u8(0x01).u64(5_000)
                .u8(0x00).u8(0x05).u8(22).hex(OTHER).u64(1_234).fill(34, 0).build();
    }

    private static byte[] clarity6Deploy() {
        return header(2).u8(0x03).u8(0x02).u32(0).u8(0x06).u8(6).name("clarity-six")
                .sized("(define-read-only (six) (ok u6))".getBytes(StandardCharsets.US_ASCII)).build();
    }

    /** A call guarded by a Pox post condition, which the block skipped as problematic (epoch 4.0). */
    private static byte[] poxGuardedCall() {
        return header(3).u8(0x03).u8(0x02).u32(1).u8(0x04).u8(0x01).u8(0x30)
                .u8(0x02).u8(22).hex("0000000000000000000000000000000000000000").name("pox-5").name("stake")
                .u32(0).build();
    }

    /** The build before SIP-044: it stops at a Staking post condition, as a 2025 build's decoder does. */
    private static StacksTransaction beforeSip044(byte[] raw) {
        StacksTransaction tx = StacksTransaction.decode(raw);
        if (tx.postConditions().stream().anyMatch(pc -> pc instanceof PostCondition.Staking)) {
            throw CodecException.at(FIRST_CONDITION_AT, "unknown post-condition type 3");
        }
        return tx;
    }

    @Test
    void aFeatureTheBuildDoesNotKnowIsHeldThenServedAfterRebuild() throws Exception {
        byte[] raw = stakingGuardedTransfer();
        String txId = Sha512_256.txId(raw);
        String sender = StacksTransaction.decode(raw).senderAddress().toString();
        int blockLine = blockLineWithTransactions();
        ObjectNode block = (ObjectNode) IngestServer.JSON.readTree(body(DEMO_LINES.get(blockLine)));
        long height = block.get("block_height").asLong();
        int ownTxs = block.get("transactions").size();
        String neighbour = block.get("transactions").get(0).get("txid").asText();
        addReceipt(block, raw, "success", "0x0703", null);
        addStxTransfer(block, txId, sender, "SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7", 1_234);

        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            try (AutoCloseable olderBuild = NodeTransactions.decodingAs(TodaysChainContract::beforeSip044)) {
                postDemoLinesBefore(server, blockLine);
                Answer delivered = server.postToObserver("/new_block", block.toString());
                assertEquals(200, delivered.status(), "never refused: " + delivered.raw());
            }
            assertEquals(ownTxs + 1, server.get("/extended/v2/blocks/" + height).body().get("tx_count").asInt(),
                    "the block counts the held transaction");
            JsonNode lookup = server.get("/extended/v1/tx/multiple?tx_id=" + txId + "&tx_id=" + neighbour).body();
            assertFalse(lookup.get(txId).get("found").asBoolean(), "held: not served");
            assertTrue(lookup.get(neighbour).get("found").asBoolean(), "the rest of the block is served");
            String readiness = server.get("/health/readiness").raw();
            assertTrue(readiness.contains("\"heldTransactions\":1") && readiness.contains(txId)
                    && readiness.contains("unknown post-condition type 3 at byte offset " + FIRST_CONDITION_AT), readiness);
            assertEquals(0, server.get("/extended/v2/addresses/" + sender + "/transactions").body().get("total").asInt());

            // The upgrade: this build reads Staking post conditions. A rebuild serves the transaction.
            server.ingestor().rebuild(id -> { });
            JsonNode served = server.get("/extended/v1/tx/multiple?tx_id=" + txId).body().get(txId);
            assertTrue(served.get("found").asBoolean(), served.toString());
            JsonNode tx = served.get("result");
            assertEquals("success", tx.get("tx_status").asText());
            assertEquals(height, tx.get("block_height").asLong());
            assertEquals(ownTxs, tx.get("tx_index").asInt());
            JsonNode condition = tx.get("post_conditions").get(0);
            assertEquals("staking", condition.get("type").asText());
            assertEquals("sent_equal_to", condition.get("condition_code").asText());
            assertEquals("5000", condition.get("amount").asText());
            assertEquals("principal_origin", condition.get("principal").get("type_id").asText());
            assertEquals(1, tx.get("event_count").asInt());
            assertEquals(ownTxs + 1, server.get("/extended/v2/blocks/" + height).body().get("tx_count").asInt());
            JsonNode history = server.get("/extended/v2/addresses/" + sender + "/transactions").body();
            assertEquals(1, history.get("total").asInt(), history.toString());
            assertEquals("1534", history.get("results").get(0).get("stx_sent").asText(), "1,234 sent and the fee");
            assertTrue(server.get("/health/readiness").raw().contains("\"heldTransactions\":0"));
        }
    }

    @Test
    void epochFourReceiptsAreServedWithThePeersShapes() throws Exception {
        byte[] deploy = clarity6Deploy();
        byte[] skipped = poxGuardedCall();
        String deployId = Sha512_256.txId(deploy);
        String skippedId = Sha512_256.txId(skipped);
        int blockLine = blockLineWithTransactions();
        ObjectNode block = (ObjectNode) IngestServer.JSON.readTree(body(DEMO_LINES.get(blockLine)));
        String neighbour = block.get("transactions").get(0).get("txid").asText();
        String contractId = StacksTransaction.decode(deploy).senderAddress() + ".clarity-six";
        ObjectNode deployReceipt = addReceipt(block, deploy, "success", "0x0703", null);
        deployReceipt.remove("contract_abi");
        deployReceipt.set("contract_interface", IngestServer.JSON.readTree(
                "{\"functions\":[{\"name\":\"six\",\"access\":\"read_only\",\"args\":[],\"outputs\":{\"type\":"
                        + "{\"response\":{\"ok\":\"uint128\",\"error\":\"none\"}}}}],\"variables\":[],\"maps\":[],"
                        + "\"fungible_tokens\":[],\"non_fungible_tokens\":[],\"epoch\":\"Epoch40\","
                        + "\"clarity_version\":\"Clarity6\"}"));
        addReceipt(block, skipped, "problematic_skipped", "0x0809", "problematic transaction\u0000 skipped");

        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            postDemoLinesBefore(server, blockLine);
            Answer delivered = server.postToObserver("/new_block", block.toString());
            assertEquals(200, delivered.status(), delivered.raw());
            JsonNode lookup = server.get("/extended/v1/tx/multiple?tx_id=" + deployId + "&tx_id=" + skippedId
                    + "&tx_id=" + neighbour).body();
            JsonNode deployed = lookup.get(deployId).get("result");
            assertEquals(6, deployed.get("smart_contract").get("clarity_version").asInt());
            assertEquals(contractId, deployed.get("smart_contract").get("contract_id").asText());
            assertTrue(deployed.has("vm_error") && deployed.get("vm_error").isNull(), deployed.toString());
            JsonNode problematic = lookup.get(skippedId).get("result");
            assertEquals("problematic_skipped", problematic.get("tx_status").asText());
            assertEquals("problematic transaction\uFFFD skipped", problematic.get("vm_error").asText(),
                    "NUL, which PostgreSQL text cannot hold, as U+FFFD on both databases");
            assertEquals("(err none)", problematic.get("tx_result").get("repr").asText());
            JsonNode pox = problematic.get("post_conditions").get(0);
            assertEquals("pox", pox.get("type").asText());
            assertEquals("not_performed", pox.get("condition_code").asText());
            assertFalse(pox.has("amount"), pox.toString());
            assertTrue(lookup.get(neighbour).get("result").get("vm_error").isNull());

            JsonNode status = server.get("/extended/v2/smart-contracts/status?contract_id=" + contractId).body();
            assertEquals("success", status.get(contractId).get("result").get("status").asText(), status.toString());
            // Not run, so no fee: the skipped call's sender paid nothing for it.
            String sender = StacksTransaction.decode(skipped).senderAddress().toString();
            for (JsonNode row : server.get("/extended/v2/addresses/" + sender + "/transactions").body().get("results")) {
                if (row.get("tx").get("tx_id").asText().equals(skippedId)) {
                    assertEquals("0", row.get("stx_sent").asText());
                }
            }
        }
    }

    @Test
    void aMempoolBatchKeepsItsReadableTransactionsAndUnknownNamesNeverStall() throws Exception {
        byte[] good = clarity6Deploy();
        String goodId = Sha512_256.txId(good);
        int blockLine = blockLineWithTransactions();
        ObjectNode block = (ObjectNode) IngestServer.JSON.readTree(body(DEMO_LINES.get(blockLine)));
        byte[] future = poxGuardedCall();
        String futureId = Sha512_256.txId(future);
        addReceipt(block, future, "some_status_of_epoch_5", "0x0703", null);
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            postDemoLinesBefore(server, blockLine);
            Answer batch = server.postToObserver("/new_mempool_tx",
                    "[\"0x" + Hex.encode(good).replaceFirst("^0x", "") + "\", \"0x00ff\"]");
            assertEquals(200, batch.status(), batch.raw());
            JsonNode pending = server.get("/extended/v1/tx/multiple?tx_id=" + goodId).body().get(goodId);
            assertEquals("pending", pending.get("result").get("tx_status").asText(), pending.toString());

            assertEquals(200, server.postToObserver("/new_block", block.toString()).status(), "an unknown status");
            Answer heldLookup = server.get("/extended/v1/tx/multiple?tx_id=" + futureId);
            assertEquals(404, heldLookup.status(), "held, so not found: " + heldLookup.raw());
            assertTrue(server.get("/health/readiness").raw().contains("unknown transaction status some_status_of_epoch_5"));
            Answer drop = server.postToObserver("/drop_mempool_tx",
                    "{\"dropped_txids\":[\"" + goodId + "\"],\"reason\":\"SomeReasonOfEpoch5\",\"new_txid\":null}");
            assertEquals(200, drop.status(), drop.raw());
            JsonNode afterDrop = server.get("/extended/v1/tx/multiple?tx_id=" + goodId).body().get(goodId);
            assertEquals("pending", afterDrop.path("result").path("tx_status").asText(),
                    "an unknown drop reason is kept, not applied: " + afterDrop);
        }
    }

    @Test
    void bitcoinOriginatedOperationsAreServedAsTransactions() throws Exception {
        int blockLine = blockLineWithTransactions();
        ObjectNode block = (ObjectNode) IngestServer.JSON.readTree(body(DEMO_LINES.get(blockLine)));
        long height = block.get("block_height").asLong();
        int ownTxs = block.get("transactions").size();
        String sender = new StacksAddress(StacksAddress.MAINNET_SINGLE_SIG, Hex.decode("0x" + SIGNER)).toString();
        String recipient = new StacksAddress(StacksAddress.MAINNET_MULTI_SIG, Hex.decode("0x" + OTHER)).toString();
        String transfer = "0x" + "85".repeat(32);
        String stack = "0x" + "e5".repeat(32);
        String vote = "0x" + "7e".repeat(32);
        ObjectNode op = addOperation(block, transfer, "transfer_stx");
        op.set("sender", principal(sender, SIGNER, 22));
        op.set("recipient", principal(recipient, OTHER, 20));
        op.put("transfered_ustx", 10).put("memo", "0x000102030405");
        addStxTransfer(block, transfer, sender, recipient, 10);
        op = addOperation(block, stack, "stack_stx");
        op.set("sender", principal(sender, SIGNER, 22));
        op.put("stacked_ustx", new java.math.BigInteger("4500432000000000")).put("num_cycles", 6)
                .put("burn_block_height", 121).put("auth_id", 123456789).put("max_amount", 4500432000000000L)
                .put("reward_addr", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0")
                .put("signer_key", "033b67384665cbc3a36052a2d1c739a6cd1222cd451c499400c9d42e2041a56161");
        op = addOperation(block, vote, "vote_for_aggregate_key");
        op.set("sender", principal(sender, SIGNER, 22));
        op.put("signer_index", 3).put("round", 0).put("reward_cycle", 90)
                .put("aggregate_key", "033b67384665cbc3a36052a2d1c739a6cd1222cd451c499400c9d42e2041a56161");

        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            postDemoLinesBefore(server, blockLine);
            Answer delivered = server.postToObserver("/new_block", block.toString());
            assertEquals(200, delivered.status(), delivered.raw());
            assertEquals(ownTxs + 3, server.get("/extended/v2/blocks/" + height).body().get("tx_count").asInt());
            JsonNode lookup = server.get("/extended/v1/tx/multiple?tx_id=" + transfer + "&tx_id=" + stack
                    + "&tx_id=" + vote).body();
            JsonNode tx = lookup.get(transfer).get("result");
            assertEquals(transfer, tx.get("tx_id").asText(), "the node's txid, not the hash of the built bytes");
            assertEquals("token_transfer", tx.get("tx_type").asText());
            assertEquals(sender, tx.get("sender_address").asText());
            assertEquals(0, tx.get("nonce").asInt());
            assertEquals("0", tx.get("fee_rate").asText());
            assertEquals("allow", tx.get("post_condition_mode").asText());
            assertEquals("any", tx.get("anchor_mode").asText());
            assertEquals(recipient, tx.get("token_transfer").get("recipient_address").asText());
            assertEquals("10", tx.get("token_transfer").get("amount").asText());
            assertEquals("0x", tx.get("token_transfer").get("memo").asText(), "as the peer serves it");
            assertEquals(ownTxs, tx.get("tx_index").asInt());
            JsonNode call = lookup.get(stack).get("result").get("contract_call");
            assertEquals("SP000000000000000000002Q6VF78.pox-4", call.get("contract_id").asText());
            assertEquals("stack-stx", call.get("function_name").asText());
            JsonNode args = call.get("function_args");
            assertEquals(8, args.size());
            assertEquals("u4500432000000000", args.get(0).get("repr").asText());
            assertEquals("(tuple (hashbytes 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798)"
                    + " (version 0x06))", args.get(1).get("repr").asText());
            assertEquals("u121", args.get(2).get("repr").asText());
            assertEquals("u6", args.get(3).get("repr").asText());
            assertEquals("none", args.get(4).get("repr").asText());
            assertEquals("u123456789", args.get(7).get("repr").asText());
            JsonNode voted = lookup.get(vote).get("result").get("contract_call");
            assertEquals("SP000000000000000000002Q6VF78.signers-voting", voted.get("contract_id").asText());
            assertEquals("vote-for-aggregate-public-key", voted.get("function_name").asText());
            JsonNode history = server.get("/extended/v2/addresses/" + recipient + "/transactions").body();
            assertEquals(transfer, history.get("results").get(0).get("tx").get("tx_id").asText(), history.toString());
            assertEquals("10", history.get("results").get(0).get("stx_received").asText());
        }
    }

    /**
     * The demo preset walks every epoch through 4.0 (Clarity 5 and 6, Originator, maybe_sent, Staking and Pox
     * post conditions, problematic_skipped, Bitcoin operations): each of its lines, posted to the live
     * observer as a node would, is answered 200, nothing is held, and today's features are served.
     */
    @Test
    void aLogOfEveryEpochThroughFourFeedsTheObserverWithoutARefusal() throws Exception {
        String skipped = null;
        String bitcoinTransfer = null;
        String staking = null;
        for (String line : DEMO_LINES) {
            if (path(line).equals("/new_block")) {
                for (JsonNode tx : IngestServer.JSON.readTree(body(line)).get("transactions")) {
                    String raw = tx.get("raw_tx").asText();
                    if (tx.get("status").asText().equals("problematic_skipped")) {
                        skipped = tx.get("txid").asText();
                    } else if (tx.path("burnchain_op").has("transfer_stx")) {
                        bitcoinTransfer = tx.get("txid").asText();
                    } else if (!tx.path("burnchain_op").isObject() && StacksTransaction.decodeHex(raw)
                            .postConditions().stream().anyMatch(pc -> pc instanceof PostCondition.Staking)) {
                        staking = tx.get("txid").asText();
                    }
                }
            }
        }
        assertTrue(skipped != null && bitcoinTransfer != null && staking != null, "the demo log has each feature");
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            postDemoLinesBefore(server, DEMO_LINES.size());
            assertTrue(server.get("/health/readiness").raw().contains("\"heldTransactions\":0"));
            JsonNode lookup = server.get("/extended/v1/tx/multiple?tx_id=" + skipped + "&tx_id=" + bitcoinTransfer
                    + "&tx_id=" + staking).body();
            assertEquals("problematic_skipped", lookup.get(skipped).get("result").get("tx_status").asText());
            assertEquals("token_transfer", lookup.get(bitcoinTransfer).get("result").get("tx_type").asText());
            boolean servedStaking = false;
            for (JsonNode pc : lookup.get(staking).get("result").get("post_conditions")) {
                servedStaking |= pc.get("type").asText().equals("staking");
            }
            assertTrue(servedStaking, lookup.get(staking).toString());
        }
    }

    // --------------------------------------------------------------------------------------------

    private static ObjectNode principal(String address, String hash, int version) {
        ObjectNode p = IngestServer.JSON.createObjectNode();
        p.put("address", address).put("address_hash_bytes", "0x" + hash).put("address_version", version);
        return p;
    }

    /** Appends a Bitcoin-originated operation's receipt as a node sends it; returns its operation object. */
    private static ObjectNode addOperation(ObjectNode block, String txId, String kind) {
        ArrayNode txs = (ArrayNode) block.get("transactions");
        ObjectNode receipt = txs.get(0).deepCopy();
        receipt.put("txid", txId).put("raw_tx", "0x00").put("status", "success").put("raw_result", "0x0703")
                .put("tx_index", txs.size()).putNull("contract_abi").putNull("vm_error");
        ObjectNode op = receipt.putObject("burnchain_op").putObject(kind);
        op.put("burn_txid", txId.substring(2)).put("vtxindex", txs.size()).put("burn_block_height", 121)
                .put("burn_header_hash", "71".repeat(32));
        txs.add(receipt);
        return op;
    }

    private static List<String> demoLines() {
        List<String> lines = new ArrayList<>();
        try {
            Preset.DEMO.generate(lines::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    private static String path(String line) {
        return line.split("\t", 4)[2];
    }

    private static String body(String line) {
        return line.split("\t", 4)[3];
    }

    /** The first /new_block line of a block at height 5 or more with transactions of its own. */
    private static int blockLineWithTransactions() throws IOException {
        for (int i = 0; i < DEMO_LINES.size(); i++) {
            if (path(DEMO_LINES.get(i)).equals("/new_block")) {
                JsonNode b = IngestServer.JSON.readTree(body(DEMO_LINES.get(i)));
                if (b.get("block_height").asLong() >= 5 && b.get("transactions").size() >= 2
                        && b.get("transactions").get(0).path("microblock_hash").isNull()) {
                    return i;
                }
            }
        }
        throw new AssertionError("no such block in the demo log");
    }

    private static void postDemoLinesBefore(IngestServer server, int end) {
        for (String line : DEMO_LINES.subList(0, end)) {
            Answer answer = server.postToObserver(path(line), body(line));
            assertEquals(200, answer.status(), answer.raw());
        }
    }

    /** Appends a receipt for {@code raw}, shaped as the block's first one, at the block's next index. */
    private static ObjectNode addReceipt(ObjectNode block, byte[] raw, String status, String rawResult, String vmError) {
        ArrayNode txs = (ArrayNode) block.get("transactions");
        ObjectNode receipt = txs.get(0).deepCopy();
        receipt.put("txid", Sha512_256.txId(raw));
        receipt.put("raw_tx", Hex.encode(raw).startsWith("0x") ? Hex.encode(raw) : "0x" + Hex.encode(raw));
        receipt.put("status", status);
        receipt.put("raw_result", rawResult);
        receipt.put("tx_index", txs.size());
        receipt.putNull("contract_abi");
        if (vmError == null) {
            receipt.putNull("vm_error");
        } else {
            receipt.put("vm_error", vmError);
        }
        txs.add(receipt);
        return receipt;
    }

    private static void addStxTransfer(ObjectNode block, String txId, String sender, String recipient, long amount) {
        ArrayNode events = (ArrayNode) block.withArray("events");
        long next = 0;
        for (JsonNode e : events) {
            next = Math.max(next, e.get("event_index").asLong() + 1);
        }
        ObjectNode event = events.addObject();
        event.put("txid", txId);
        event.put("event_index", next);
        event.put("committed", true);
        event.put("type", "stx_transfer_event");
        ObjectNode d = event.putObject("stx_transfer_event");
        d.put("sender", sender);
        d.put("recipient", recipient);
        d.put("amount", Long.toString(amount));
        d.put("memo", "");
    }
}
