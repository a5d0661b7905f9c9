package io.stacksexplorer.subscribe;

import io.stacksexplorer.http.SharedData;
import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionVersion;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.ingest.NodeFeeder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subscriptions over a recorded node log (fuzzed-transactions-1: 12 served blocks, mempool
 * transactions, a drop) posted to the real observer, on each database: what arrives, in which
 * order, that each notification can be read back at once, and resuming after a disconnect and
 * after a server restart.
 */
abstract class SubscriptionsContract {

    static final String LOG = "fuzzed-transactions-1.tsv";
    static List<NodeFeeder.Payload> payloads;
    static String chainId;

    abstract TestDatabase database();

    @BeforeAll
    static void readLog() throws IOException {
        Path log = SharedData.nodeEventLog(LOG).orElse(null);
        Assumptions.assumeTrue(log != null, "../shared/data/stacks-node-events/" + LOG + " is not there");
        payloads = NodeFeeder.read(log);
        chainId = "0x00000001";
        for (NodeFeeder.Payload p : payloads) {
            if (p.path().equals("/new_block")) {
                JsonNode txs = SubscriptionServer.JSON.readTree(p.body()).path("transactions");
                if (!txs.isEmpty()) {
                    chainId = txs.get(0).path("raw_tx").asText().startsWith("0x80") ? "0x80000000" : "0x00000001";
                    break;
                }
            }
        }
    }

    /** Ids of the transactions in a /new_mempool_tx body. */
    static List<String> mempoolTxIds(NodeFeeder.Payload p) throws IOException {
        List<String> ids = new ArrayList<>();
        for (JsonNode raw : SubscriptionServer.JSON.readTree(p.body())) {
            ids.add(Sha512_256.txId(Hex.decode(raw.asText())));
        }
        return ids;
    }

    static List<String> blockTxIds(NodeFeeder.Payload p) throws IOException {
        List<String> ids = new ArrayList<>();
        for (JsonNode tx : SubscriptionServer.JSON.readTree(p.body()).path("transactions")) {
            ids.add(tx.path("txid").asText());
        }
        return ids;
    }

    /** The first transaction that enters the mempool and is mined later in the log, with its raw hex. */
    static String[] mempoolThenMined() throws IOException {
        Set<String> mined = new LinkedHashSet<>();
        for (NodeFeeder.Payload p : payloads) {
            if (p.path().equals("/new_block")) {
                mined.addAll(blockTxIds(p));
            }
        }
        for (NodeFeeder.Payload p : payloads) {
            if (p.path().equals("/new_mempool_tx")) {
                JsonNode raws = SubscriptionServer.JSON.readTree(p.body());
                for (JsonNode raw : raws) {
                    String id = Sha512_256.txId(Hex.decode(raw.asText()));
                    if (mined.contains(id)) {
                        return new String[]{id, raw.asText()};
                    }
                }
            }
        }
        throw new IllegalStateException("no transaction of " + LOG + " goes from the mempool into a block");
    }

    static int servedBlocks() throws IOException {
        int n = 0;
        for (NodeFeeder.Payload p : payloads) {
            if (p.path().equals("/new_block")
                    && SubscriptionServer.JSON.readTree(p.body()).path("block_height").asLong() > 0) {
                n++;
            }
        }
        return n;
    }

    /** Notifications until the {@code count}-th one of {@code method}, then any that follow within a second. */
    static List<JsonNode> until(WsClient client, String method, int count) throws InterruptedException {
        List<JsonNode> got = new ArrayList<>();
        int seen = 0;
        while (seen < count) {
            JsonNode n = client.next(30);
            assertNotNull(n, "only " + seen + " of " + count + " " + method + " notifications arrived: " + got);
            got.add(n);
            if (method.equals(n.path("method").asText())) {
                seen++;
            }
        }
        got.addAll(client.drain(1));
        return got;
    }

    static List<Long> heights(List<JsonNode> notifications) {
        List<Long> heights = new ArrayList<>();
        for (JsonNode n : notifications) {
            if ("block".equals(n.path("method").asText())) {
                heights.add(n.at("/params/height").asLong());
            }
        }
        return heights;
    }

    static List<Long> range(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long h = from; h <= to; h++) {
            out.add(h);
        }
        return out;
    }

    @Test
    void everyNotificationArrivesInOrderAndIsReadableOnArrival() throws Exception {
        String[] watched = mempoolThenMined();
        String txId = watched[0];
        StacksTransaction decoded = StacksTransaction.decodeHex(watched[1]);
        String address = decoded.senderAddress().toString();
        try (SubscriptionServer server = SubscriptionServer.start(database(), chainId, Map.of())) {
            List<String> unreadable = new CopyOnWriteArrayList<>();
            // Runs on the socket's thread as each notification arrives, before the next is read.
            WsClient client = new WsClient(server.wsUrl(), n -> {
                String method = n.path("method").asText();
                JsonNode params = n.path("params");
                if (method.equals("block")) {
                    SubscriptionServer.Answer a = server.get("/extended/v2/blocks/" + params.path("hash").asText());
                    if (a.status() != 200 || !a.body().equals(params)) {
                        unreadable.add("block " + params.path("height") + ": " + a.status() + " " + a.raw());
                    }
                } else if (method.equals("tx_update")) {
                    String id = params.path("tx_id").asText();
                    SubscriptionServer.Answer a = server.get("/extended/v1/tx/multiple?tx_id=" + id);
                    // Found; its state may already be a later one (the feeder does not wait).
                    if (a.status() != 200 || !a.body().at("/" + id + "/found").asBoolean()) {
                        unreadable.add("tx " + id + ": " + a.status() + " " + a.raw());
                    }
                }
            });
            try (client) {
                client.subscribe(WsClient.params("block"));
                client.subscribe(WsClient.params("mempool"));
                JsonNode tx = client.subscribe(WsClient.params("tx_update").put("tx_id", txId.toUpperCase().replace("0X", "")));
                assertEquals(txId, tx.at("/result/tx_id").asText(), "the answer names the normalised id");
                client.subscribe(WsClient.params("address_tx_update").put("address", address));

                server.post(payloads);
                List<JsonNode> got = until(client, "block", servedBlocks());

                got.forEach(NotificationSchemas::check);
                assertEquals(List.of(), unreadable, "notifications must be readable from the server on arrival");
                assertEquals(range(1, servedBlocks()), heights(got), "every served block once, in chain order");
                List<String> positions = got.stream().map(n -> n.path("position").asText()).toList();
                List<Position> parsed = positions.stream().map(Position::parse).toList();
                List<Position> sorted = new ArrayList<>(parsed);
                Collections.sort(sorted);
                assertEquals(sorted, parsed, "positions increase");
                assertEquals(parsed.size(), new LinkedHashSet<>(parsed).size(), "no position twice");

                List<String> txStatuses = got.stream().filter(n -> n.path("method").asText().equals("tx_update"))
                        .map(n -> n.at("/params/tx_status").asText()).toList();
                assertEquals(List.of("pending", "success"), txStatuses, "the watched transaction: pending, then mined");
                assertTrue(got.stream().anyMatch(n -> n.path("method").asText().equals("mempool")
                        && n.at("/params/tx_id").asText().equals(txId)), "the mempool notification of " + txId);
                List<JsonNode> addressUpdates = got.stream()
                        .filter(n -> n.path("method").asText().equals("address_tx_update")).toList();
                assertFalse(addressUpdates.isEmpty());
                addressUpdates.forEach(n -> assertEquals(address, n.at("/params/address").asText()));
                assertTrue(addressUpdates.stream().anyMatch(n -> n.at("/params/tx_id").asText().equals(txId)
                        && n.at("/params/tx_status").asText().equals("success") && n.at("/params/stx_sent").isTextual()),
                        "the address sees its transaction mined, with its STX totals");

                // Mempool notifications are for pending transactions only, each once.
                List<String> mempool = got.stream().filter(n -> n.path("method").asText().equals("mempool"))
                        .map(n -> n.at("/params/tx_id").asText()).toList();
                assertEquals(mempool.size(), new LinkedHashSet<>(mempool).size());
                got.stream().filter(n -> n.path("method").asText().equals("mempool"))
                        .forEach(n -> assertEquals("pending", n.at("/params/tx_status").asText()));
            }
        }
    }

    @Test
    void resumesWithoutGapsOrDuplicatesAfterADisconnectAndARestart() throws Exception {
        int blocks = servedBlocks();
        List<List<NodeFeeder.Payload>> thirds = splitAtBlocks(blocks / 3, 2 * blocks / 3);
        try (SubscriptionServer server = SubscriptionServer.start(database(), chainId, Map.of())) {
            String last;
            try (WsClient client = new WsClient(server.wsUrl())) {
                client.subscribe(WsClient.params("block"));
                server.post(thirds.get(0));
                List<JsonNode> first = until(client, "block", blocks / 3);
                assertEquals(range(1, blocks / 3), heights(first));
                last = first.get(first.size() - 1).path("position").asText();
            }
            // Disconnected while the next blocks arrive.
            server.post(thirds.get(1));
            try (WsClient client = new WsClient(server.wsUrl())) {
                client.subscribe(WsClient.params("block").put("after", last));
                List<JsonNode> missed = until(client, "block", 2 * blocks / 3 - blocks / 3);
                missed.forEach(NotificationSchemas::check);
                assertEquals(range(blocks / 3 + 1, 2 * blocks / 3), heights(missed), "what was missed, once, in order");
                last = missed.get(missed.size() - 1).path("position").asText();
            }
            // The server restarts; more blocks arrive before the client is back.
            server.restart();
            server.post(thirds.get(2));
            try (WsClient client = new WsClient(server.wsUrl())) {
                client.subscribe(WsClient.params("block").put("after", last));
                List<JsonNode> missed = until(client, "block", blocks - 2 * blocks / 3);
                assertEquals(range(2 * blocks / 3 + 1, blocks), heights(missed), "positions survive the restart");
            }
            // A resume from before everything replays the whole chain, once.
            try (WsClient client = new WsClient(server.wsUrl())) {
                client.subscribe(WsClient.params("block").put("after", "0"));
                assertEquals(range(1, blocks), heights(until(client, "block", blocks)));
            }
        }
    }

    @Test
    void theEventStreamResumesFromLastEventId() throws Exception {
        int blocks = servedBlocks();
        List<List<NodeFeeder.Payload>> halves = splitAtBlocks(blocks / 2, Integer.MAX_VALUE);
        try (SubscriptionServer server = SubscriptionServer.start(database(), chainId, Map.of())) {
            String base = "http://127.0.0.1:" + server.apiPort() + "/extended/v1/stream?event=block";
            try (SseClient live = new SseClient(base, Map.of())) {
                assertEquals(200, live.status());
                assertTrue(live.contentType().startsWith("text/event-stream"), live.contentType());
                server.post(halves.get(0));
                List<SseClient.Event> first = live.take(blocks / 2);
                for (int i = 0; i < first.size(); i++) {
                    SseClient.Event e = first.get(i);
                    assertEquals("block", e.name());
                    JsonNode block = SubscriptionServer.JSON.readTree(e.data());
                    NotificationSchemas.checkParams("block", block);
                    assertEquals(i + 1, block.path("height").asLong());
                    assertNotNull(Position.parse(e.id()), "id is a position: " + e.id());
                }
                String resumeAt = first.get(blocks / 4).id();
                server.post(halves.get(1));
                assertEquals(blocks - blocks / 2, live.take(blocks - blocks / 2).size());
                // What EventSource sends when it reconnects.
                try (SseClient resumed = new SseClient(base, Map.of("Last-Event-ID", resumeAt))) {
                    List<SseClient.Event> rest = resumed.take(blocks - blocks / 4 - 1);
                    List<Long> heights = new ArrayList<>();
                    for (SseClient.Event e : rest) {
                        heights.add(SubscriptionServer.JSON.readTree(e.data()).path("height").asLong());
                    }
                    assertEquals(range(blocks / 4 + 2, blocks), heights);
                    assertEquals(List.of(), resumed.more(1), "nothing twice");
                }
                // A new page passes the position as a parameter.
                try (SseClient resumed = new SseClient(base + "&last_event_id=" + resumeAt, Map.of())) {
                    assertEquals(blocks - blocks / 4 - 1, resumed.take(blocks - blocks / 4 - 1).size());
                }
            }
        }
    }

    @Test
    void badRequestsGetErrorsNotAClosedConnection() throws Exception {
        try (SubscriptionServer server = SubscriptionServer.start(database(), chainId, Map.of())) {
            try (WsClient client = new WsClient(server.wsUrl())) {
                assertEquals(-32700, client.callRaw("{not json", -1).at("/error/code").asInt());
                assertEquals(-32600, client.callRaw("{\"id\":7,\"method\":\"subscribe\"}", 7).at("/error/code").asInt());
                assertEquals(-32601, client.call("watch", WsClient.params("block")).at("/error/code").asInt());
                JsonNode badTx = client.call("subscribe", WsClient.params("tx_update").put("tx_id", "0x12"));
                assertEquals(-32602, badTx.at("/error/code").asInt());
                assertEquals("tx_id", badTx.at("/error/data/parameter").asText());
                JsonNode badAddress = client.call("subscribe", WsClient.params("address_tx_update").put("address", "SP000"));
                assertEquals("address", badAddress.at("/error/data/parameter").asText());
                assertEquals(-32602, client.call("subscribe", WsClient.params("nft_event")).at("/error/code").asInt());
                assertEquals(-32602, client.call("subscribe", WsClient.params("block").put("after", "x")).at("/error/code").asInt());
                // Still usable.
                assertEquals("block", client.subscribe(WsClient.params("block")).at("/result/event").asText());
            }
            for (String query : List.of("", "?event=nft_event", "?tx_id=0x12", "?address=SP000",
                    "?event=block&last_event_id=abc")) {
                SubscriptionServer.Answer a = server.get("/extended/v1/stream" + query);
                assertEquals(400, a.status(), query + " " + a.raw());
                assertNotNull(a.body().get("detail"), a.raw());
            }
        }
    }

    /** A 2.x mainnet log: block 1, three microblocks on it (five transactions), then two forks of block 2. */
    static final String MICROBLOCK_LOG = "mainnet-reorg-scenario2.tsv";

    @Test
    void eachMicroblockIsAnnouncedOnceAsTheNodeSentItAndIsReadableOnArrival() throws Exception {
        Path log = SharedData.nodeEventLog(MICROBLOCK_LOG).orElse(null);
        Assumptions.assumeTrue(log != null, "../shared/data/stacks-node-events/" + MICROBLOCK_LOG + " is not there");
        List<NodeFeeder.Payload> feed = NodeFeeder.read(log);
        // What the node said of each microblock: header, parent burn block, transactions in order.
        Map<String, List<String>> txsOf = new java.util.LinkedHashMap<>();
        Map<String, JsonNode> headerOf = new java.util.HashMap<>();
        JsonNode delivery = null;
        for (NodeFeeder.Payload p : feed) {
            if (p.path().equals("/new_microblocks")) {
                delivery = SubscriptionServer.JSON.readTree(p.body());
                for (JsonNode tx : delivery.path("transactions")) {
                    String hash = tx.path("microblock_hash").asText();
                    txsOf.computeIfAbsent(hash, h -> new ArrayList<>()).add(tx.path("txid").asText());
                    headerOf.putIfAbsent(hash, tx);
                }
            }
        }
        assertNotNull(delivery, MICROBLOCK_LOG + " has a /new_microblocks payload");
        try (SubscriptionServer server = SubscriptionServer.start(database(), "0x00000001", Map.of())) {
            List<String> unreadable = new CopyOnWriteArrayList<>();
            WsClient client = new WsClient(server.wsUrl(), n -> {
                if (n.path("method").asText().equals("microblock")) {
                    for (JsonNode id : n.at("/params/txs")) {
                        SubscriptionServer.Answer a = server.get("/extended/v1/tx/multiple?unanchored=true&tx_id="
                                + id.asText());
                        if (a.status() != 200 || !a.body().at("/" + id.asText() + "/found").asBoolean()) {
                            unreadable.add("tx " + id.asText() + ": " + a.status() + " " + a.raw());
                        }
                    }
                }
            });
            List<JsonNode> microblocks;
            try (client) {
                client.subscribe(WsClient.params("microblock"));
                server.post(feed);
                microblocks = until(client, "microblock", txsOf.size()).stream()
                        .filter(n -> n.path("method").asText().equals("microblock")).toList();
            }
            assertEquals(List.of(), unreadable, "a microblock's transactions are readable when it is announced");
            microblocks.forEach(NotificationSchemas::check);
            assertEquals(new ArrayList<>(txsOf.keySet()),
                    microblocks.stream().map(n -> n.at("/params/microblock_hash").asText()).toList(),
                    "each microblock once, in stream order");
            for (JsonNode n : microblocks) {
                JsonNode m = n.get("params");
                String hash = m.path("microblock_hash").asText();
                JsonNode header = headerOf.get(hash);
                assertEquals(txsOf.get(hash), SubscriptionServer.JSON.convertValue(m.get("txs"), List.class), hash);
                assertEquals(header.path("microblock_sequence").asInt(), m.path("microblock_sequence").asInt());
                assertEquals(header.path("microblock_parent_hash").asText(), m.path("microblock_parent_hash").asText());
                assertEquals(delivery.path("burn_block_hash").asText(), m.path("parent_burn_block_hash").asText());
                assertEquals(delivery.path("burn_block_height").asLong(), m.path("parent_burn_block_height").asLong());
                assertEquals(delivery.path("burn_block_timestamp").asLong(), m.path("parent_burn_block_time").asLong());
                assertEquals(1, m.path("parent_block_height").asLong());
                assertEquals(2, m.path("block_height").asLong());
                assertTrue(m.path("canonical").asBoolean() && m.path("microblock_canonical").asBoolean(), m.toString());
                assertTrue(m.get("block_hash").isNull(), "unanchored when announced: " + m);
            }
            assertEquals(server.get("/extended/v2/blocks/1").body().path("hash").asText(),
                    microblocks.get(0).at("/params/parent_block_hash").asText());

            // Resumed from the start: the same notifications at the same positions.
            try (WsClient resumed = new WsClient(server.wsUrl())) {
                resumed.subscribe(WsClient.params("microblock").put("after", "0"));
                List<JsonNode> again = until(resumed, "microblock", txsOf.size()).stream()
                        .filter(n -> n.path("method").asText().equals("microblock")).toList();
                assertEquals(microblocks, again);
            }
            // The event stream: the same params as data, the position as id.
            try (SseClient stream = new SseClient("http://127.0.0.1:" + server.apiPort()
                    + "/extended/v1/stream?event=microblock&last_event_id=0", Map.of())) {
                List<SseClient.Event> events = stream.take(txsOf.size());
                for (int i = 0; i < events.size(); i++) {
                    SseClient.Event e = events.get(i);
                    assertEquals("microblock", e.name());
                    JsonNode data = SubscriptionServer.JSON.readTree(e.data());
                    NotificationSchemas.checkParams("microblock", data);
                    assertEquals(microblocks.get(i).get("params"), data);
                    assertEquals(microblocks.get(i).path("position").asText(), e.id());
                }
            }
        }
    }

    @Test
    void aReorgSendsEachTransactionItsNewStateAndTheNewForksBlocks() throws Exception {
        List<NewBlock> chain = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().subList(0, 22);
        NewBlock b20 = chain.get(19);
        NewBlock b21 = chain.get(20);
        NewBlock b22 = chain.get(21);
        NewTransaction onlyInOriginal = b20.transactions().get(b20.transactions().size() - 1);
        NewBlock fork20 = new NewBlock("0x" + "f0".repeat(32), "0x" + "e0".repeat(32), 20, b20.parentBlockHash(),
                b20.parentIndexBlockHash(), b20.parentMicroblockHash(), b20.parentMicroblockSequence(), b20.blockTime(),
                b20.burnBlockTime(), b20.burnBlockHash(), b20.burnBlockHeight(), b20.parentBurnBlockTime(),
                b20.minerTxid(), b20.transactions().subList(0, b20.transactions().size() - 1));
        NewBlock fork21 = new NewBlock("0x" + "f1".repeat(32), "0x" + "e1".repeat(32), 21, fork20.blockHash(),
                fork20.indexBlockHash(), b21.parentMicroblockHash(), 0, b21.blockTime(), b21.burnBlockTime(),
                b21.burnBlockHash(), b21.burnBlockHeight(), b21.parentBurnBlockTime(), b21.minerTxid(),
                List.of(b21.transactions().get(0)));
        try (SubscriptionServer server = SubscriptionServer.start(database(), "0x00000001", Map.of());
             WsClient client = new WsClient(server.wsUrl())) {
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            client.subscribe(WsClient.params("block"));
            client.subscribe(WsClient.params("tx_update").put("tx_id", onlyInOriginal.txId()));

            writer.addMempoolTransactions(List.of(new NewMempoolTransaction(onlyInOriginal.rawTx(), 1704000000L)));
            chain.subList(0, 20).forEach(writer::writeBlock);
            List<JsonNode> before = until(client, "block", 20);
            assertEquals(List.of("pending", "success"), statuses(before));
            assertEquals(b20.blockHash(), last(before, "tx_update").at("/params/block_hash").asText());

            writer.writeBlock(fork20);   // a sibling: nothing served changes
            writer.writeBlock(fork21);   // its fork is longer now
            List<JsonNode> forked = until(client, "block", 2);
            assertEquals(List.of(20L, 21L), heights(forked), "the new fork's blocks");
            assertEquals(fork20.blockHash(), forked.stream().filter(n -> n.path("method").asText().equals("block"))
                    .findFirst().orElseThrow().at("/params/hash").asText());
            JsonNode orphaned = last(forked, "tx_update");
            assertNotNull(orphaned, "the transaction only the orphaned block mined gets an update");
            assertTrue(orphaned.at("/params/receipt_time").isNumber() && orphaned.at("/params/block_hash").isMissingNode(),
                    "back in the mempool shape: " + orphaned);
            String id = onlyInOriginal.txId();
            assertEquals(server.get("/extended/v1/tx/multiple?tx_id=" + id).body().at("/" + id + "/result"),
                    orphaned.get("params"), "as the lookup answers it");

            writer.writeBlock(b21);      // a sibling of 21'
            writer.writeBlock(b22);      // the original fork wins again
            List<JsonNode> back = until(client, "block", 3);
            assertEquals(List.of(20L, 21L, 22L), heights(back));
            JsonNode remined = last(back, "tx_update");
            assertEquals("success", remined.at("/params/tx_status").asText());
            assertEquals(b20.blockHash(), remined.at("/params/block_hash").asText());
            back.forEach(NotificationSchemas::check);
        }
    }

    @Test
    void aClientThatNeverReadsIsDroppedAndTheOthersCarryOn() throws Exception {
        List<NewBlock> chain = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks();
        Map<String, Object> small = Map.of("stacks.subscriptions.max-pending-per-connection", 20,
                "micronaut.server.netty.child-options.SO_SNDBUF", 4096);
        try (SubscriptionServer server = SubscriptionServer.start(database(), "0x00000001", small);
             WsClient reader = new WsClient(server.wsUrl());
             StalledSocket stalled = new StalledSocket(server.apiPort())) {
            ChangeFeed feed = server.context().getBean(ChangeFeed.class);
            reader.subscribe(WsClient.params("block"));
            stalled.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":{\"event\":\"block\"}}");
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            int written = 0;
            for (NewBlock block : chain) {
                writer.writeBlock(block);
                written++;
                if (written % 10 == 0) {
                    assertEquals(written - 9, heights(until(reader, "block", 10)).get(0));
                }
                if (written >= 60 && feed.connections() == 1) {
                    break;
                }
            }
            assertEquals(1, feed.connections(), "the stalled client was dropped after " + written + " blocks");
            // The reader still gets every block.
            writer.writeBlock(chain.get(written));
            assertEquals(List.of((long) written + 1), heights(until(reader, "block", 1)));
        }
    }

    /**
     * A rebuild (every table derived again from the stored payloads) keeps the change log and adds
     * one mark to it, of kind {@code rebuild}, for the answer cache (everything kept is dropped):
     * nobody is told the chain a second time, and a resume afterwards renders the same notifications
     * from the rebuilt rows.
     */
    @Test
    void aRebuildAnnouncesNothingAgainAndResumesRenderTheSame() throws Exception {
        try (SubscriptionServer server = SubscriptionServer.start(database(), chainId, Map.of());
             WsClient client = new WsClient(server.wsUrl())) {
            client.subscribe(WsClient.params("block"));
            server.post(payloads);
            List<JsonNode> live = until(client, "block", servedBlocks());
            io.stacksexplorer.query.ChangeQueries changes = server.context().getBean(io.stacksexplorer.query.ChangeQueries.class);
            long head = changes.head();

            server.context().getBean(io.stacksexplorer.ingest.EventIngestor.class).rebuild(id -> { });

            assertEquals(head + 1, changes.head(), "the rebuild appended one mark, not the chain again");
            assertEquals(List.of("rebuild"), changes.after(head, 10).stream()
                    .map(io.stacksexplorer.query.ChangeQueries.Change::kind).toList());
            assertEquals(List.of(), client.drain(2), "nothing is announced again");
            try (WsClient resumed = new WsClient(server.wsUrl())) {
                resumed.subscribe(WsClient.params("block").put("after", "0"));
                assertEquals(live, until(resumed, "block", servedBlocks()));
            }
        }
    }

    /**
     * The writer prunes the change log by age (7 days by default): a resume from a position it no
     * longer has is refused with the oldest position it keeps (JSON-RPC error -32002, event stream
     * 410), never answered with a silent gap; a resume from within the kept log still works.
     */
    @Test
    void aResumeFromBeforeTheKeptLogIsRefusedWithTheOldestPosition() throws Exception {
        List<NewBlock> chain = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().subList(0, 30);
        try (SubscriptionServer server = SubscriptionServer.start(database(), "0x00000001", Map.of())) {
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            io.stacksexplorer.query.ChangeQueries changes = server.context().getBean(io.stacksexplorer.query.ChangeQueries.class);
            chain.subList(0, 20).forEach(writer::writeBlock);
            long aged = changes.head();
            // The first twenty blocks' changes were recorded eight days ago.
            try (java.sql.Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(
                    server.context().getBean(javax.sql.DataSource.class)).getConnection();
                 java.sql.PreparedStatement st = c.prepareStatement(
                         "UPDATE change_log SET recorded_at = recorded_at - ? WHERE position <= ?")) {
                st.setLong(1, java.time.Duration.ofDays(8).toMillis());
                st.setLong(2, aged);
                assertEquals(aged, st.executeUpdate());
            }
            chain.subList(20, 30).forEach(writer::writeBlock);
            assertEquals(aged, server.context().getBean(io.stacksexplorer.write.ChangeLogRetention.class).prune(),
                    "every change older than the retention, and nothing newer");
            assertEquals(aged + 1, changes.oldest());
            String oldest = Long.toString(aged + 1);

            try (WsClient client = new WsClient(server.wsUrl())) {
                for (String after : List.of("0", Long.toString(aged - 1), Long.toString(aged), aged + ":1")) {
                    JsonNode refused = client.call("subscribe", WsClient.params("block").put("after", after));
                    assertEquals(-32002, refused.at("/error/code").asInt(), after + ": " + refused);
                    assertEquals("after", refused.at("/error/data/parameter").asText());
                    assertEquals(oldest, refused.at("/error/data/oldest_position").asText());
                }
                // From the oldest position kept (block 21's change, whose one notification the
                // client saw): the blocks after it.
                client.subscribe(WsClient.params("block").put("after", oldest));
                assertEquals(range(22, 30), heights(until(client, "block", 9)));
            }
            for (String query : List.of("?event=block&last_event_id=0", "?event=block&last_event_id=" + (aged - 1))) {
                SubscriptionServer.Answer gone = server.get("/extended/v1/stream" + query);
                assertEquals(410, gone.status(), gone.raw());
                assertEquals("last_event_id", gone.body().path("parameter").asText());
                assertEquals(oldest, gone.body().path("oldest_position").asText());
            }
        }
    }

    /**
     * Memory stays flat while clients that never read are flooded: sixty stalled WebSockets, each
     * subscribed to blocks and to the busiest addresses of the demo chain, while the whole chain is
     * written. The heap in use after a full GC (plus Netty's direct buffers, where frames wait to be
     * sent) may grow by at most {@link #FLAT}, and every stalled client is closed with 1008.
     *
     * <p>Why this can fail: without the per-connection bound a stalled connection keeps every
     * notification written to it (the envelope string and its frame, at least a byte per character),
     * so the server would hold the stalled clients' whole traffic. That traffic is measured here
     * (every notification of the log for their subscriptions, rendered as the server renders it), and
     * the test requires it to be several times {@link #FLAT}: unbounded buffering would exceed it.
     */
    @Test
    void stalledClientsLeaveTheHeapFlatAndAreClosedWith1008() throws Exception {
        List<NewBlock> chain = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks();
        Map<String, Integer> sent = new java.util.HashMap<>();
        for (NewBlock block : chain) {
            for (NewTransaction tx : block.transactions()) {
                sent.merge(StacksTransaction.decodeHex(tx.rawTx()).senderAddress().toString(), 1, Integer::sum);
            }
        }
        List<String> requests = new ArrayList<>();
        requests.add(WsClient.params("block").toString());
        sent.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(60)
                .forEach(e -> requests.add(WsClient.params("address_tx_update").put("address", e.getKey()).toString()));
        int stalledClients = 60;
        Map<String, Object> small = Map.of("stacks.subscriptions.max-pending-per-connection", 20,
                "micronaut.server.netty.child-options.SO_SNDBUF", 4096);
        try (SubscriptionServer server = SubscriptionServer.start(database(), "0x00000001", small)) {
            if (database() == TestDatabase.H2) {
                // H2's page cache (64 MB, StorageSettings) fills as the chain is written: kept small
                // here so that it does not pass for buffered notifications.
                try (java.sql.Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(
                        server.context().getBean(javax.sql.DataSource.class)).getConnection();
                     java.sql.Statement st = c.createStatement()) {
                    st.execute("SET CACHE_SIZE 8192");
                }
            }
            ChangeFeed feed = server.context().getBean(ChangeFeed.class);
            List<StalledSocket> stalled = new ArrayList<>();
            try {
                for (int i = 0; i < stalledClients; i++) {
                    StalledSocket socket = new StalledSocket(server.apiPort());
                    stalled.add(socket);
                    // One JSON-RPC batch, its answer read: a client that subscribes, then stalls.
                    StringBuilder batch = new StringBuilder("[");
                    for (int id = 1; id <= requests.size(); id++) {
                        batch.append(id > 1 ? "," : "").append("{\"jsonrpc\":\"2.0\",\"id\":").append(id)
                                .append(",\"method\":\"subscribe\",\"params\":").append(requests.get(id - 1)).append('}');
                    }
                    String answer = socket.call(batch.append(']').toString());
                    assertFalse(answer.contains("\"error\""), answer);
                }
                Topic lastAddress = new Topic("address_tx_update",
                        SubscriptionServer.JSON.readTree(requests.get(requests.size() - 1)).path("address").asText());
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (feed.watchers(lastAddress) < stalledClients && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertEquals(stalledClients, feed.watchers(lastAddress), "every client subscribed");
                long before = usedMemory();

                ChainWriter writer = server.context().getBean(ChainWriter.class);
                chain.forEach(writer::writeBlock);
                deadline = System.nanoTime() + 60_000_000_000L;
                while (feed.connections() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertEquals(0, feed.connections(), "every stalled client was dropped");
                long grown = usedMemory() - before;

                long traffic = trafficOf(server, requests, 4 * FLAT / stalledClients + 1);
                assertTrue((long) stalledClients * traffic > 4 * FLAT, "the flood must be large enough to tell: "
                        + stalledClients + " × " + traffic + " characters (memory grew by " + grown + " bytes)");
                assertTrue(grown < FLAT, "memory grew by " + grown / (1 << 20) + " MB while " + stalledClients
                        + " stalled clients were sent " + traffic / (1 << 20) + " MB each");
                for (StalledSocket socket : stalled) {
                    assertEquals(1008, socket.readUntilClose(10_000), "closed as too slow");
                }
            } finally {
                for (StalledSocket socket : stalled) {
                    socket.close();
                }
            }
        }
    }

    /** The bound of {@link #stalledClientsLeaveTheHeapFlatAndAreClosedWith1008}: 64 MB. */
    private static final long FLAT = 64L << 20;

    /**
     * The characters of the notifications a client subscribed with {@code requests} is sent, rendered
     * as the server renders them, from the start of the change log until {@code enough} or its end.
     */
    private static long trafficOf(SubscriptionServer server, List<String> requests, long enough) throws IOException {
        Set<String> addresses = new java.util.HashSet<>();
        for (String r : requests) {
            addresses.add(SubscriptionServer.JSON.readTree(r).path("address").asText(null));
        }
        io.stacksexplorer.query.ChangeQueries changes = server.context().getBean(io.stacksexplorer.query.ChangeQueries.class);
        io.stacksexplorer.web.ChangePayloads payloads = server.context().getBean(io.stacksexplorer.web.ChangePayloads.class);
        io.micronaut.json.JsonMapper json = server.context().getBean(io.micronaut.json.JsonMapper.class);
        long chars = 0;
        long at = 0;
        List<io.stacksexplorer.query.ChangeQueries.Change> page;
        while (chars < enough && !(page = changes.after(at, 500)).isEmpty()) {
            for (io.stacksexplorer.query.ChangeQueries.Change change : page) {
                at = change.position();
                for (io.stacksexplorer.web.ChangePayloads.Payload p : payloads.of(change)) {
                    if (p.method().equals("block") || p.method().equals("address_tx_update") && addresses.contains(p.key())) {
                        chars += json.writeValueAsString(p.params()).length();
                    }
                }
            }
        }
        return chars;
    }

    /** Heap in use after a full collection, plus Netty's direct memory where it counts it. */
    private static long usedMemory() throws InterruptedException {
        java.lang.management.MemoryMXBean memory = java.lang.management.ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        long direct = io.netty.util.internal.PlatformDependent.usedDirectMemory();
        return memory.getHeapMemoryUsage().getUsed() + Math.max(0, direct);
    }

    private static List<String> statuses(List<JsonNode> notifications) {
        return notifications.stream().filter(n -> n.path("method").asText().equals("tx_update"))
                .map(n -> n.at("/params/tx_status").asText()).toList();
    }

    private static JsonNode last(List<JsonNode> notifications, String method) {
        JsonNode found = null;
        for (JsonNode n : notifications) {
            if (n.path("method").asText().equals(method)) {
                found = n;
            }
        }
        return found;
    }


    /** The log cut after the {@code a}-th and {@code b}-th served block. */
    static List<List<NodeFeeder.Payload>> splitAtBlocks(int a, int b) throws IOException {
        List<List<NodeFeeder.Payload>> parts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        int served = 0;
        int part = 0;
        for (NodeFeeder.Payload p : payloads) {
            parts.get(part).add(p);
            if (p.path().equals("/new_block")
                    && SubscriptionServer.JSON.readTree(p.body()).path("block_height").asLong() > 0) {
                served++;
                if (served == a || served == b) {
                    part++;
                }
            }
        }
        return parts;
    }
}
