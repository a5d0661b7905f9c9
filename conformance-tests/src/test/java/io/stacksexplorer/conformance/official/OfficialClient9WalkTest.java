package io.stacksexplorer.conformance.official;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.conformance.official.ChainFacts.Log;
import io.stacksexplorer.conformance.official.ChainFacts.Mined;
import io.stacksexplorer.conformance.provider.states.DemoChainSeed;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.generate.Preset;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.EventObserverListener;
import io.stacksexplorer.ingest.NodeFeeder;
import io.stacksexplorer.write.NewBlock;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static io.stacksexplorer.conformance.official.OfficialClient9.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hiro's current official client, {@code @stacks/blockchain-api-client} 9.0.2 unchanged, against the
 * real server while the demo chain's last blocks arrive through the event observer, as a node sends
 * them: the client subscribes through its WebSocket helpers ({@code connectWebSocketClient},
 * {@code subscribeBlocks}, {@code subscribeMempool}, {@code subscribeTxUpdates},
 * {@code subscribeAddressTransactions}), then walks the hot address's whole history by cursor with
 * {@code client.GET}, while the test posts one more block before each page. Every page conforms to
 * spec/openapi.yaml; a walk returns exactly the address's transactions as of its first page (from
 * the chain: no gap, no repeat, newest first); every notification arrives once and in order and
 * is what the routes answer.
 *
 * <p>Walks: {@code /extended/v2/addresses/{address}/transactions} by our {@code next_cursor} (the
 * peer's v2 route takes no cursor; the client passes the parameter through), and, once
 * spec/openapi.yaml declares them, the peer's cursor-paged successors
 * {@code /extended/v3/principals/{principal}/transactions} ({@code cursor.next} leads to older
 * entries) and {@code /extended/v2/smart-contracts/{contract_id}/logs} ({@code prev_cursor} does).
 */
class OfficialClient9WalkTest {

    private static final String SCRIPT = "official-client9-walk.mjs";
    /** Blocks posted while the client walks (the demo chain's last ones, all on its canonical chain). */
    private static final int TAIL_BLOCKS = 60;

    private record Walk(String name, String path, ObjectNode pathParams, String follow, String idPointer,
                        Function<Long, List<String>> expectedAsOf) {
    }

    @Test
    void walksByCursorWhileBlocksArriveAndReceivesEveryNotification() throws Exception {
        OfficialClient9.install();
        DemoChain chain = DemoChainSeed.chain();
        ChainFacts facts = new ChainFacts(chain.blocks(), List.of());
        String address = chain.summary().hotAddresses().get(0);
        String contract = chain.summary().contractIdWithLogs();
        List<String> lines = new ArrayList<>();
        Preset.DEMO.generate(lines::add);
        Tail tail = Tail.of(lines, chain, TAIL_BLOCKS);

        List<Walk> walks = new ArrayList<>();
        walks.add(new Walk("v2 address transactions", "/extended/v2/addresses/{address}/transactions",
                JSON.createObjectNode().put("address", address), "/next_cursor", "/tx/tx_id",
                h -> ids(facts.history(address), h)));
        if (OfficialClient9.specHasPath(OfficialClient9Test.V3_TRANSACTIONS)) {
            walks.add(new Walk("v3 principal transactions", OfficialClient9Test.V3_TRANSACTIONS,
                    JSON.createObjectNode().put("principal", address), "/cursor/next", "/transaction/tx_id",
                    h -> ids(facts.history(address), h)));
        }
        if (OfficialClient9.specHasPath(OfficialClient9Test.V2_LOGS)) {
            walks.add(new Walk("v2 contract logs", OfficialClient9Test.V2_LOGS,
                    JSON.createObjectNode().put("contract_id", contract), "/prev_cursor", "/tx_id",
                    h -> logIds(facts.contractLogs(contract), h)));
        }

        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("micronaut.server.host", "127.0.0.1");
        props.put("stacks.event-observer.enabled", true);
        props.put("stacks.event-observer.port", 0);
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props);
             NodeFeeder node = new NodeFeeder("127.0.0.1",
                     server.getApplicationContext().getBean(EventObserverListener.class).port(),
                     NodeFeeder.Connections.KEEP_ALIVE)) {
            String base = "http://127.0.0.1:" + server.getPort();
            for (String line : tail.head()) {
                post(node, line);
            }
            String watched = tail.watchedTxId();
            Mined watchedMined = facts.find(watched).orElseThrow();
            ObjectNode plan = JSON.createObjectNode().put("baseUrl", base).put("principal", address)
                    .put("txId", watched).put("finalTxStatus", watchedMined.tx().status().apiName())
                    .put("lastHeight", tail.lastHeight()).put("timeoutMillis", 60_000);
            ArrayNode planWalks = plan.putArray("walks");
            for (Walk walk : walks) {
                ObjectNode w = planWalks.addObject().put("name", walk.name()).put("path", walk.path())
                        .put("follow", walk.follow());
                w.set("pathParams", walk.pathParams());
                w.putObject("query").put("limit", 50);
            }
            Path planFile = OfficialClient9.WORK.resolve(SCRIPT + ".plan.json");
            JSON.writeValue(planFile.toFile(), plan);

            Process client = OfficialClient9.start(SCRIPT, planFile);
            Map<String, List<JsonNode>> pages = new LinkedHashMap<>();
            Map<String, Long> tipAtFirstPage = new HashMap<>();
            Map<String, Integer> blocksDuringWalk = new HashMap<>();
            JsonNode notifications = null;
            List<String> failures = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
                 Writer in = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8)) {
                int chunk = 0;
                int perWalk = tail.chunks().size() / walks.size();
                long tip = tail.headHeight();
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    JsonNode message = JSON.readTree(line);
                    switch (message.get("kind").asText()) {
                        case "ready" -> say(in, "go");
                        case "page" -> {
                            String walk = message.get("walk").asText();
                            pages.computeIfAbsent(walk, w -> new ArrayList<>()).add(message);
                            tipAtFirstPage.putIfAbsent(walk, tip);
                            failures.addAll(OfficialClient9.specErrors(walk + " page " + pages.get(walk).size(), message));
                            // One more block before the next page, each walk its share of the tail.
                            int walkIndex = new ArrayList<>(pages.keySet()).indexOf(walk);
                            if (chunk < tail.chunks().size() && chunk < perWalk * (walkIndex + 1)) {
                                for (String l : tail.chunks().get(chunk)) {
                                    post(node, l);
                                }
                                tip = tail.chunkHeights().get(chunk++);
                                blocksDuringWalk.merge(walk, 1, Integer::sum);
                            }
                            say(in, "go");
                        }
                        case "walked" -> {
                            if (message.get("walk").asText().equals(walks.get(walks.size() - 1).name())) {
                                while (chunk < tail.chunks().size()) {
                                    for (String l : tail.chunks().get(chunk++)) {
                                        post(node, l);
                                    }
                                }
                                tail.rest().forEach(l -> post(node, l));
                                say(in, "done");
                            }
                        }
                        case "notifications" -> notifications = message.get("value");
                        default -> fail("unexpected " + line);
                    }
                }
                assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the client finished");
                assertEquals(0, client.exitValue(), "node " + SCRIPT);
            } finally {
                client.destroyForcibly();
            }
            if (!failures.isEmpty()) {
                fail(String.join("\n", failures));
            }

            for (Walk walk : walks) {
                List<JsonNode> walked = pages.get(walk.name());
                assertTrue(walked != null && !walked.isEmpty(), walk.name() + ": walked");
                assertTrue(blocksDuringWalk.getOrDefault(walk.name(), 0) > 0, walk.name() + ": blocks arrived during the walk");
                List<String> expected = walk.expectedAsOf().apply(tipAtFirstPage.get(walk.name()));
                List<String> served = new ArrayList<>();
                for (JsonNode page : walked) {
                    assertEquals(200, page.get("status").asInt(), page.toString());
                    served.addAll(OfficialClient9Test.txIds(page.at("/body/results"), walk.idPointer()));
                }
                assertTrue(walked.size() > 1, walk.name() + ": more than one page");
                assertEquals(expected.size(), walked.get(0).at("/body/total").asInt(), walk.name() + ": total on the first page");
                assertEquals(expected, served, walk.name() + ": every entry as of the first page, once, newest first");
            }

            checkNotifications(notifications, base, tail, facts, address, watched, watchedMined);
        }
    }

    private static void checkNotifications(JsonNode notifications, String base, Tail tail, ChainFacts facts,
                                           String address, String watched, Mined watchedMined) throws Exception {
        assertTrue(notifications != null, "the client printed its notifications");
        List<Long> heights = new ArrayList<>();
        List<String> txStatuses = new ArrayList<>();
        List<String> mempool = new ArrayList<>();
        Set<String> addressMined = new LinkedHashSet<>();
        List<String> failures = new ArrayList<>();
        for (JsonNode n : notifications) {
            JsonNode value = n.get("value");
            switch (n.get("kind").asText()) {
                case "block" -> {
                    heights.add(value.get("height").asLong());
                    JsonNode answer = answer(base + "/extended/v2/blocks/" + value.get("hash").asText());
                    failures.addAll(OfficialClient9.specErrors("block " + value.get("height"), answer));
                    if (!answer.get("body").equals(value)) {
                        failures.add("block " + value.get("height") + ": the notification differs from the route's answer");
                    }
                }
                case "tx" -> txStatuses.add(value.get("tx_status").asText());
                case "mempool" -> mempool.add(value.get("tx_id").asText());
                case "address" -> {
                    assertEquals(address, value.get("address").asText());
                    if (value.at("/tx/block_height").isNumber()) {
                        assertTrue(addressMined.add(value.get("tx_id").asText()), "mined once: " + value.get("tx_id"));
                    }
                }
                default -> failures.add("unexpected " + n);
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        List<Long> expectedHeights = new ArrayList<>();
        for (long h = tail.headHeight() + 1; h <= tail.lastHeight(); h++) {
            expectedHeights.add(h);
        }
        assertEquals(expectedHeights, heights, "every block posted after subscribing, once, in order");
        assertEquals(List.of("pending", watchedMined.tx().status().apiName()), txStatuses, watched + ", step by step");
        assertEquals(tail.announced(), mempool, "every transaction announced after subscribing, once, in order");
        Set<String> expectedMined = new LinkedHashSet<>();
        facts.history(address).stream().filter(m -> m.height() > tail.headHeight()).map(Mined::txId)
                .forEach(expectedMined::add);
        assertFalse(expectedMined.isEmpty(), "the tail has transactions of the address");
        assertEquals(expectedMined, Set.copyOf(addressMined), "the address's transactions mined after subscribing");
        JsonNode lookup = answer(base + "/extended/v1/tx/multiple?tx_id=" + watched);
        JsonNode last = null;
        for (JsonNode n : notifications) {
            if (n.get("kind").asText().equals("tx")) {
                last = n.get("value");
            }
        }
        assertEquals(lookup.at("/body/" + watched + "/result"), last, "the watched transaction's last notification");
    }

    /**
     * The demo log cut before its last {@code blocks} blocks: the head, posted before the client
     * starts; one chunk per tail block (the lines up to and including its {@code /new_block});
     * what follows the last block. The tail blocks must be canonical in the demo chain (no reorg
     * there), so that "the chain as of height h" is the demo chain's prefix.
     */
    private record Tail(List<String> head, List<List<String>> chunks, List<Long> chunkHeights, List<String> rest,
                        long headHeight, List<String> announced, String watchedTxId) {

        long lastHeight() {
            return chunkHeights.get(chunkHeights.size() - 1);
        }

        static Tail of(List<String> lines, DemoChain chain, int blocks) throws IOException {
            List<Integer> blockLines = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                if (path(lines.get(i)).equals("/new_block")) {
                    blockLines.add(i);
                }
            }
            int start = blockLines.get(blockLines.size() - blocks - 1) + 1;
            Set<String> canonical = new HashSet<>();
            chain.blocks().forEach(b -> canonical.add(b.indexBlockHash()));
            List<List<String>> chunks = new ArrayList<>();
            List<Long> heights = new ArrayList<>();
            int from = start;
            for (int i : blockLines.subList(blockLines.size() - blocks, blockLines.size())) {
                JsonNode block = JSON.readTree(body(lines.get(i)));
                assertTrue(canonical.contains(block.get("index_block_hash").asText()),
                        "the demo log's last blocks are canonical: " + block.get("block_height"));
                chunks.add(lines.subList(from, i + 1));
                heights.add(block.get("block_height").asLong());
                from = i + 1;
            }
            Set<String> seen = new HashSet<>();
            List<String> announced = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                if (path(lines.get(i)).equals("/new_mempool_tx")) {
                    for (JsonNode raw : JSON.readTree(body(lines.get(i)))) {
                        String id = Sha512_256.txId(Hex.decode(raw.asText()));
                        if (seen.add(id) && i >= start) {
                            announced.add(id);
                        }
                    }
                }
            }
            Set<String> minedInTail = new HashSet<>();
            NewBlock last = chain.blocks().get(chain.blocks().size() - 1);
            long headHeight = heights.get(0) - 1;
            chain.blocks().stream().filter(b -> b.height() > headHeight)
                    .forEach(b -> b.transactions().forEach(tx -> minedInTail.add(tx.txId())));
            String watched = announced.stream().filter(minedInTail::contains).findFirst()
                    .orElseThrow(() -> new AssertionError("a transaction announced and mined in the tail"));
            assertEquals(last.height(), heights.get(heights.size() - 1), "the log ends on the chain's tip");
            return new Tail(lines.subList(0, start), chunks, heights, lines.subList(from, lines.size()), headHeight,
                    announced, watched);
        }
    }

    private static List<String> ids(List<Mined> history, long asOf) {
        return history.stream().filter(m -> m.height() <= asOf).map(Mined::txId).toList();
    }

    private static List<String> logIds(List<Log> logs, long asOf) {
        return logs.stream().filter(l -> l.mined().height() <= asOf).map(l -> l.mined().txId()).toList();
    }

    private static void post(NodeFeeder node, String line) {
        try {
            NodeFeeder.Payload payload = new NodeFeeder.Payload(path(line), body(line));
            assertEquals(200, node.post(payload), payload.path());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void say(Writer in, String word) throws IOException {
        in.write(word + "\n");
        in.flush();
    }

    /** A GET as the exchange record {@link OfficialClient9#specErrors} reads. */
    private static JsonNode answer(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        ObjectNode answer = JSON.createObjectNode().put("url", url).put("status", response.statusCode());
        ObjectNode headers = answer.putObject("headers");
        response.headers().map().forEach((name, values) -> headers.put(name, values.get(0)));
        answer.set("body", JSON.readTree(response.body()));
        return answer;
    }

    private static String path(String line) {
        return line.split("\t", 4)[2];
    }

    private static String body(String line) {
        return line.split("\t", 4)[3];
    }
}
