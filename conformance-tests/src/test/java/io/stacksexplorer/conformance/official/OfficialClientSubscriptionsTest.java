package io.stacksexplorer.conformance.official;

import io.stacksexplorer.http.SharedData;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.EventObserverListener;
import io.stacksexplorer.ingest.NodeFeeder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The official TypeScript client's WebSocket subscriptions ({@code connectWebSocketClient},
 * {@code subscribeBlocks}, {@code subscribeMempool}, {@code subscribeTxUpdates},
 * {@code subscribeAddressTransactions}, and {@code subscribeMicroblocks} over a 2.x log) against the real server while the test posts a recorded
 * node log to the event observer: every block arrives once and in order, the watched transaction
 * goes pending → success, the mempool and the address see it, and each payload is what the HTTP
 * routes answer for the same block or transaction.
 *
 * <p>Needs Node.js and npm (as {@link OfficialClientTest}) and ../shared's recorded logs.
 */
class OfficialClientSubscriptionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SOURCES = Path.of("src", "test", "node");
    private static final Path WORK = Path.of("target", "official-client");
    private static final String SCRIPT = "official-client-subscriptions.mjs";
    private static final String LOG = "fuzzed-transactions-1.tsv";
    private static final String MICROBLOCK_LOG = "mainnet-reorg-scenario2.tsv";

    @Test
    void officialClientReceivesEverySubscribedNotification() throws Exception {
        OfficialClientTest.requireNode();
        OfficialClientTest.installClient();
        Files.copy(SOURCES.resolve(SCRIPT), WORK.resolve(SCRIPT), StandardCopyOption.REPLACE_EXISTING);
        Path log = SharedData.nodeEventLog(LOG).orElse(null);
        Assumptions.assumeTrue(log != null, "../shared/data/stacks-node-events/" + LOG + " is not there");
        List<NodeFeeder.Payload> payloads = NodeFeeder.read(log);

        // The watched transaction: the first that enters the mempool and is mined later; its sender.
        Set<String> mined = new LinkedHashSet<>();
        long lastHeight = 0;
        String chainId = null;
        for (NodeFeeder.Payload p : payloads) {
            if (p.path().equals("/new_block")) {
                JsonNode block = JSON.readTree(p.body());
                lastHeight = Math.max(lastHeight, block.path("block_height").asLong());
                for (JsonNode tx : block.path("transactions")) {
                    mined.add(tx.path("txid").asText());
                    if (chainId == null) {
                        chainId = tx.path("raw_tx").asText().startsWith("0x80") ? "0x80000000" : "0x00000001";
                    }
                }
            }
        }
        String txId = null;
        String address = null;
        for (NodeFeeder.Payload p : payloads) {
            if (txId == null && p.path().equals("/new_mempool_tx")) {
                for (JsonNode raw : JSON.readTree(p.body())) {
                    String id = Sha512_256.txId(Hex.decode(raw.asText()));
                    if (txId == null && mined.contains(id)) {
                        txId = id;
                        address = StacksTransaction.decodeHex(raw.asText()).senderAddress().toString();
                    }
                }
            }
        }
        assertTrue(txId != null, LOG + " has a transaction that goes from the mempool into a block");

        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("micronaut.server.host", "127.0.0.1");
        props.put("stacks.chain-id", chainId);
        props.put("stacks.event-observer.enabled", true);
        props.put("stacks.event-observer.port", 0);
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props)) {
            String base = "http://127.0.0.1:" + server.getPort();
            ObjectNode plan = JSON.createObjectNode()
                    .put("wsUrl", base)
                    .put("txId", txId)
                    .put("address", address)
                    .put("lastHeight", lastHeight)
                    .put("finalTxStatus", "success")
                    .put("timeoutMillis", 60_000);
            JsonNode received = runClient(server, plan, payloads);

            List<Long> heights = new ArrayList<>();
            List<String> txStatuses = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            boolean mempoolSawIt = false;
            boolean addressSawItMined = false;
            for (JsonNode n : received) {
                JsonNode value = n.get("value");
                switch (n.get("kind").asText()) {
                    case "block" -> {
                        heights.add(value.path("height").asLong());
                        JsonNode ours = get(base + "/extended/v2/blocks/" + value.path("hash").asText());
                        if (!ours.equals(value)) {
                            failures.add("block " + value.path("height") + " differs from the route's answer");
                        }
                    }
                    case "tx" -> txStatuses.add(value.path("tx_status").asText());
                    case "mempool" -> mempoolSawIt |= value.path("tx_id").asText().equals(txId);
                    case "address" -> {
                        if (!value.path("address").asText().equals(address)) {
                            failures.add("address update for " + value.path("address"));
                        }
                        addressSawItMined |= value.path("tx_id").asText().equals(txId)
                                && value.path("tx_status").asText().equals("success")
                                && value.path("tx").path("block_height").isNumber();
                    }
                    default -> failures.add("unexpected " + n);
                }
            }
            if (!failures.isEmpty()) {
                fail(String.join("\n", failures));
            }
            List<Long> expected = new ArrayList<>();
            for (long h = 1; h <= lastHeight; h++) {
                expected.add(h);
            }
            assertEquals(expected, heights, "every block once, in chain order");
            assertEquals(List.of("pending", "success"), txStatuses, "the watched transaction, step by step");
            assertTrue(mempoolSawIt, "the mempool subscription saw the transaction arrive");
            assertTrue(addressSawItMined, "the address subscription saw its transaction mined");
            // The mined state the client got is what the lookup answers now.
            JsonNode lookup = get(base + "/extended/v1/tx/multiple?tx_id=" + txId);
            JsonNode last = null;
            for (JsonNode n : received) {
                if (n.get("kind").asText().equals("tx")) {
                    last = n.get("value");
                }
            }
            assertEquals(lookup.at("/" + txId + "/result"), last);
            assertFalse(heights.isEmpty());
        }
    }

    /**
     * {@code subscribeMicroblocks} over a recorded 2.x mainnet log (block 1, then three microblocks
     * on it, then two forks of block 2): each microblock once, in stream order, with the node's
     * transactions, unanchored.
     */
    @Test
    void officialClientReceivesMicroblocks() throws Exception {
        OfficialClientTest.requireNode();
        OfficialClientTest.installClient();
        Files.copy(SOURCES.resolve(SCRIPT), WORK.resolve(SCRIPT), StandardCopyOption.REPLACE_EXISTING);
        Path log = SharedData.nodeEventLog(MICROBLOCK_LOG).orElse(null);
        Assumptions.assumeTrue(log != null, "../shared/data/stacks-node-events/" + MICROBLOCK_LOG + " is not there");
        List<NodeFeeder.Payload> payloads = NodeFeeder.read(log);
        Map<String, List<String>> txsOf = new java.util.LinkedHashMap<>();
        for (NodeFeeder.Payload p : payloads) {
            if (p.path().equals("/new_microblocks")) {
                for (JsonNode tx : JSON.readTree(p.body()).path("transactions")) {
                    txsOf.computeIfAbsent(tx.path("microblock_hash").asText(), h -> new ArrayList<>())
                            .add(tx.path("txid").asText());
                }
            }
        }
        assertFalse(txsOf.isEmpty(), MICROBLOCK_LOG + " has microblocks");
        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("micronaut.server.host", "127.0.0.1");
        props.put("stacks.chain-id", "0x00000001");
        props.put("stacks.event-observer.enabled", true);
        props.put("stacks.event-observer.port", 0);
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props)) {
            ObjectNode plan = JSON.createObjectNode()
                    .put("wsUrl", "http://127.0.0.1:" + server.getPort())
                    .put("microblocks", txsOf.size())
                    .put("timeoutMillis", 60_000);
            JsonNode received = runClient(server, plan, payloads);
            List<String> hashes = new ArrayList<>();
            for (JsonNode n : received) {
                assertEquals("microblock", n.get("kind").asText(), n.toString());
                JsonNode m = n.get("value");
                hashes.add(m.path("microblock_hash").asText());
                assertEquals(txsOf.get(m.path("microblock_hash").asText()),
                        JSON.convertValue(m.get("txs"), List.class), m.toString());
                assertTrue(m.get("block_hash").isNull() && m.path("parent_block_height").asLong() == 1, m.toString());
            }
            assertEquals(new ArrayList<>(txsOf.keySet()), hashes, "each microblock once, in stream order");
        }
    }

    /** Starts the client script with {@code plan}, posts {@code payloads} once it is ready, returns what it got. */
    private static JsonNode runClient(EmbeddedServer server, ObjectNode plan, List<NodeFeeder.Payload> payloads)
            throws IOException, InterruptedException {
        Path planFile = WORK.resolve("subscriptions-plan.json");
        JSON.writeValue(planFile.toFile(), plan);
        Process node = new ProcessBuilder("node", SCRIPT, "subscriptions-plan.json").directory(WORK.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("ready", out.readLine(), "the client subscribed");
            int observer = server.getApplicationContext().getBean(EventObserverListener.class).port();
            try (NodeFeeder feeder = new NodeFeeder("127.0.0.1", observer, NodeFeeder.Connections.KEEP_ALIVE)) {
                for (NodeFeeder.Payload p : payloads) {
                    assertEquals(200, feeder.post(p), p.path());
                }
            }
            String line = out.readLine();
            assertTrue(node.waitFor(90, TimeUnit.SECONDS), "the client finished");
            return JSON.readTree(line);
        } finally {
            node.destroyForcibly();
        }
    }

    private static JsonNode get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), url + " " + response.body());
        return JSON.readTree(response.body());
    }
}
