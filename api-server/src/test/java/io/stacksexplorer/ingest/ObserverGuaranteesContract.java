package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.IngestServer.Answer;
import io.stacksexplorer.ingest.NodeFeeder.Payload;
import io.stacksexplorer.query.StatusQueries;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a 200 from the observer must never be given for, and what no client can do to it: a block
 * with a transaction that cannot be decoded is refused whole; a block whose parent this database
 * does not hold is kept but never served (nor made the tip) until the parent arrives, and readiness
 * says so meanwhile; a client that stalls in the middle of a body holds neither the node's
 * deliveries nor the observer.
 */
abstract class ObserverGuaranteesContract {

    private static List<Payload> log;
    private static JsonNode summary;

    abstract TestDatabase database();

    @BeforeAll
    static void generateLog(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("guarantees.tsv");
        // A 2.x log: the microblock cases need microblocks, which the Nakamoto era has none of.
        assertEquals(0, new CommandLine(new GenerateCommand()).execute(file.toString(), "--transactions", "400",
                "--seed", "12", "--era", "2"));
        log = NodeFeeder.read(file);
        summary = IngestServer.JSON.readTree(dir.resolve("guarantees.tsv.summary.json").toFile());
    }

    @Test
    void aBlockWithAnUndecodableTransactionIsRefusedWholeAndTheRealOneLaterTakenWhole() throws IOException {
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            int index = firstBlock(b -> b.get("block_height").asLong() >= 2 && b.get("transactions").size() >= 3);
            post(server, log.subList(0, index));
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            long storedBefore = writer.countStoredPayloads();
            ObjectNode block = (ObjectNode) IngestServer.JSON.readTree(log.get(index).body());
            long height = block.get("block_height").asLong();
            int txCount = block.get("transactions").size();

            // "0x00" is valid hex but no transaction (and, without a burnchain_op, no burnchain operation).
            ObjectNode broken = block.deepCopy();
            ((ObjectNode) broken.get("transactions").get(1)).put("raw_tx", "0x00");
            Answer refused = server.postToObserver("/new_block", broken.toString());
            assertEquals(400, refused.status(), refused.raw());
            // Not a transaction this build cannot read yet (that would be held): its txid is not its hash.
            assertTrue(refused.body().get("detail").asText().contains("does not match its raw_tx"), refused.raw());
            assertEquals(storedBefore, writer.countStoredPayloads(), "nothing of the refused block is stored");
            assertEquals(404, server.get("/extended/v2/blocks/" + height).status());

            Answer taken = server.postToObserver("/new_block", log.get(index).body());
            assertEquals(200, taken.status(), taken.raw());
            JsonNode served = server.get("/extended/v2/blocks/" + height).body();
            assertEquals(txCount, served.get("tx_count").asInt(), "every transaction of the real block");
        }
    }

    /**
     * A node delivers again what it is not sure was taken (after a timeout, a restart). On
     * PostgreSQL a delivery is written presuming its payload new, and a payload stored before undoes
     * the whole transaction at its commit and is then acknowledged the checked way
     * (Statements#presumeNewPayloads): every kind of payload, delivered twice, must be answered 200
     * and change nothing, neither a served answer nor the stored payloads nor the change log.
     */
    @Test
    void everyPayloadDeliveredAgainIsAcknowledgedAndChangesNothing() throws Exception {
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            post(server, log);
            String hot = summary.get("hot_address").asText();
            List<String> routes = List.of("/extended", "/extended/v2/blocks/latest",
                    "/extended/v2/addresses/" + hot + "/transactions?limit=50",
                    "/extended/v1/address/" + hot + "/mempool?limit=50");
            Map<String, String> answers = new java.util.LinkedHashMap<>();
            routes.forEach(route -> answers.put(route, server.get(route).raw()));
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            long stored = writer.countStoredPayloads();
            long changes = changeLogHead(server);
            assertEquals(log.stream().map(p -> p.path() + "\n" + p.body()).distinct().count(), stored,
                    "each distinct payload stored once");

            post(server, log);
            assertEquals(stored, writer.countStoredPayloads(), "no payload stored twice");
            assertEquals(changes, changeLogHead(server), "nothing logged for subscribers again");
            routes.forEach(route -> assertEquals(answers.get(route), server.get(route).raw(), route));
        }
    }

    private static long changeLogHead(IngestServer server) throws java.sql.SQLException {
        javax.sql.DataSource dataSource = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource
                .unwrapDataSource(server.context().getBean(javax.sql.DataSource.class));
        try (java.sql.Connection c = dataSource.getConnection();
             java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT position FROM change_log_head")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    @Test
    void aBlockWhoseParentIsMissingWaitsUnservedAndIsPlacedWhenTheParentArrives() throws IOException {
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            int parentIndex = firstBlock(b -> b.get("block_height").asLong() >= 5);
            JsonNode parent = IngestServer.JSON.readTree(log.get(parentIndex).body());
            int childIndex = childOf(parent.get("index_block_hash").asText(), parentIndex);
            JsonNode child = IngestServer.JSON.readTree(log.get(childIndex).body());
            post(server, log.subList(0, parentIndex));
            long tipBefore = tipHeight(server);
            assertEquals(parent.get("block_height").asLong() - 1, tipBefore);
            assertEquals("UP", readiness(server).get("status").asText());

            // The child first, as after a lost write: acknowledged (the node must not loop on it)...
            Answer early = server.postToObserver("/new_block", log.get(childIndex).body());
            assertEquals(200, early.status(), early.raw());
            // ...but not served and not the tip, and readiness says what is missing.
            assertEquals(tipBefore, tipHeight(server), "a block without its parent does not become the tip");
            assertEquals(404, server.get("/extended/v2/blocks/" + child.get("index_block_hash").asText()).status());
            JsonNode ready = readiness(server);
            assertEquals("DOWN", ready.get("status").asText(), ready.toString());
            assertTrue(ready.toString().contains(parent.get("index_block_hash").asText()), ready.toString());
            assertEquals(1, server.context().getBean(StatusQueries.class).blocksWaitingForParent().count());

            // The parent arrives: both are placed, in chain order, and readiness is back.
            post(server, log.subList(parentIndex, childIndex));
            assertEquals(child.get("block_height").asLong(), tipHeight(server));
            assertEquals(200, server.get("/extended/v2/blocks/" + child.get("index_block_hash").asText()).status());
            assertEquals(0, server.context().getBean(StatusQueries.class).blocksWaitingForParent().count());
            assertEquals("UP", readiness(server).get("status").asText());

            // The rest of the log (the child again among it: taken once) ends where the generator's chain ends.
            post(server, log.subList(childIndex, log.size()));
            assertEquals(summary.get("tip_height").asLong(), tipHeight(server));
            String hot = summary.get("hot_address").asText();
            assertEquals(summary.get("hot_address_transactions").asLong(),
                    server.get("/extended/v2/addresses/" + hot + "/transactions?limit=1").body().get("total").asLong());
        }
    }

    @Test
    void aMicroblockStreamBeforeItsBlockIsReportedWhileItWaitsAndPlacedWhenTheBlockArrives() throws IOException {
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            int micro = -1;
            for (int i = 0; i < log.size() && micro < 0; i++) {
                if (log.get(i).path().equals("/new_microblocks")) {
                    micro = i;
                }
            }
            assertTrue(micro > 0, "the generated log has microblocks");
            String parent = IngestServer.JSON.readTree(log.get(micro).body()).get("parent_index_block_hash").asText();
            int parentIndex = -1;
            for (int i = 0; i < micro; i++) {
                if (log.get(i).path().equals("/new_block")
                        && IngestServer.JSON.readTree(log.get(i).body()).get("index_block_hash").asText().equals(parent)) {
                    parentIndex = i;
                }
            }
            post(server, log.subList(0, parentIndex));
            StatusQueries status = server.context().getBean(StatusQueries.class);
            post(server, log.subList(micro, micro + 1));
            assertEquals(1, status.blocksWaitingForParent().microblocksWaitingForAnchor());
            JsonNode ready = readiness(server);
            assertEquals("UP", ready.get("status").asText(), "a stream may come before its block: " + ready);
            assertTrue(ready.toString().contains("\"microblocksWaitingForAnchor\":1"), ready.toString());

            post(server, log.subList(parentIndex, micro));
            assertEquals(0, status.blocksWaitingForParent().microblocksWaitingForAnchor(), "placed with its block");
            post(server, log.subList(micro, log.size()));
            assertEquals(summary.get("tip_height").asLong(), tipHeight(server));
        }
    }

    @Test
    void aForgedBlockFarAboveTheTipTakesNothing() throws IOException {
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            int index = firstBlock(b -> b.get("block_height").asLong() >= 8);
            post(server, log.subList(0, index));
            long tip = tipHeight(server);
            ObjectNode forged = (ObjectNode) IngestServer.JSON.readTree(log.get(index).body());
            forged.put("block_height", tip + 20);
            forged.put("index_block_hash", "0x" + "ab".repeat(32));
            forged.put("block_hash", "0x" + "cd".repeat(32));
            forged.put("parent_index_block_hash", "0x" + "ef".repeat(32));
            forged.set("transactions", IngestServer.JSON.createArrayNode());
            forged.set("events", IngestServer.JSON.createArrayNode());
            assertEquals(200, server.postToObserver("/new_block", forged.toString()).status());
            assertEquals(tip, tipHeight(server), "the forged block is not the tip");
            assertEquals(404, server.get("/extended/v2/blocks/" + (tip + 20)).status());
            // The real chain goes on as if nothing had come.
            post(server, log.subList(index, log.size()));
            assertEquals(summary.get("tip_height").asLong(), tipHeight(server));
        }
    }

    @Test
    void aClientStalledInTheMiddleOfABodyHoldsNeitherTheNodeNorTheObserver() throws Exception {
        try (IngestServer server = IngestServer.start(database(), "0x00000001",
                Map.of("stacks.event-observer.request-timeout-seconds", 3));
             Socket staller = new Socket("127.0.0.1", server.observerPort())) {
            // Headers and the first bytes of a 100 kB body, then nothing.
            OutputStream out = staller.getOutputStream();
            out.write(("POST /new_block HTTP/1.1\r\nHost: observer\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100000\r\n\r\n{\"block_height\": ").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream stalledAnswer = staller.getInputStream();
            staller.setSoTimeout(200);
            assertThrows(SocketTimeoutException.class, stalledAnswer::read, "the staller is still being waited for");

            // Meanwhile the node delivers on its own connections, kept alive or not.
            List<Payload> first = log.subList(0, 30);
            try (NodeFeeder keptAlive = new NodeFeeder("127.0.0.1", server.observerPort(), NodeFeeder.Connections.KEEP_ALIVE);
                 NodeFeeder perPayload = new NodeFeeder("127.0.0.1", server.observerPort(),
                         NodeFeeder.Connections.NEW_PER_PAYLOAD)) {
                for (int i = 0; i < first.size(); i++) {
                    assertEquals(200, (i % 2 == 0 ? keptAlive : perPayload).post(first.get(i)), "payload " + i);
                }
            }
            assertThrows(SocketTimeoutException.class, stalledAnswer::read,
                    "the node was answered while the staller still held its connection");
            assertTrue(tipHeight(server) > 0, "the node's blocks were taken");

            // The stalled request is given up after the request timeout: 408, and the connection closed.
            staller.setSoTimeout(30_000);
            String answer = new String(stalledAnswer.readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.contains("\"status\":408"), answer);
        }
    }

    // ------------------------------------------------------------------------------------------

    private static void post(IngestServer server, List<Payload> payloads) {
        for (Payload payload : payloads) {
            Answer answer = server.postToObserver(payload.path(), payload.body());
            assertEquals(200, answer.status(), payload.path() + ": " + answer.raw());
        }
    }

    private static long tipHeight(IngestServer server) {
        return server.get("/extended").body().get("chain_tip").get("block_height").asLong();
    }

    private static JsonNode readiness(IngestServer server) {
        return server.get("/health/readiness").body();
    }

    private interface BlockTest {
        boolean matches(JsonNode block);
    }

    private static int firstBlock(BlockTest test) throws IOException {
        for (int i = 0; i < log.size(); i++) {
            if (log.get(i).path().equals("/new_block") && test.matches(IngestServer.JSON.readTree(log.get(i).body()))) {
                return i;
            }
        }
        throw new IllegalStateException("no such block in the generated log");
    }

    private static int childOf(String indexBlockHash, int after) throws IOException {
        for (int i = after + 1; i < log.size(); i++) {
            if (log.get(i).path().equals("/new_block") && indexBlockHash.equals(
                    IngestServer.JSON.readTree(log.get(i).body()).get("parent_index_block_hash").asText())) {
                return i;
            }
        }
        throw new IllegalStateException("no child of " + indexBlockHash);
    }
}
