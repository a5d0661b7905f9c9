package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.ingest.IngestServer.Answer;
import io.stacksexplorer.http.TestDatabase;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The event observer towards the node: errors, repeats, the other paths, isolation, replay and rebuild. */
class ObserverRobustnessTest {

    private static final List<String> PROBES = List.of("/extended", "/extended/v2/blocks/latest",
            "/extended/v2/blocks/30", "/extended/v2/addresses/SP3HXJJMJQ06GNAZ8XWDN1QM48JEDC6PP6W3YZPZJ/transactions",
            "/extended/v1/address/SP3S9C931DEC0NZWEQBPCW6HGMN8T0TJHED5YDG5S/mempool",
            "/extended/v1/tx/multiple?tx_id=0x4ad2f9ef1e0d0cbd368a762074ab42bdbf908cd6f614e83f4ebb1ee6a6622f3e",
            "/extended/v1/contract/SP1K1A1PMGW2ZJCNF46NWZWHG8TS1D23EGH1KNK60.badges/events");

    @Test
    void badPayloadsAre400AndWriteNothingOtherPathsAre200() {
        try (IngestServer server = IngestServer.start(TestDatabase.H2, "0x00000001")) {
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            Answer broken = server.postToObserver("/new_block", "{\"block_hash\": ");
            assertEquals(400, broken.status());
            assertTrue(broken.body().get("detail").asText().contains("malformed JSON"), broken.raw());
            assertEquals(400, broken.body().get("status").asInt());
            Answer notHex = server.postToObserver("/new_mempool_tx", "[\"0xzz\"]");
            assertEquals(400, notHex.status(), notHex.raw());
            Answer missing = server.postToObserver("/new_block", "{\"block_height\": 1}");
            assertEquals(400, missing.status(), missing.raw());
            assertEquals(0, writer.countStoredPayloads(), "nothing half-written");
            assertTrue(!writer.hasBlocks());

            for (String path : List.of("/attachments/new", "/stackerdb_chunks", "/proposal_response", "/new_burn_block")) {
                assertEquals(200, server.postToObserver(path, "{}").status(), path);
            }
            assertEquals(200, server.postToObserver("/stackerdb_chunks", "{}").status(), "a repeat is acknowledged");
            assertEquals(4, writer.countStoredPayloads(), "kept once each");
            // Hex that no decoder of this build reads is a transaction it cannot read yet, not a broken
            // payload: the batch is kept (without it), never refused (TodaysChainContract).
            assertEquals(200, server.postToObserver("/new_mempool_tx", "[\"0x00ff\"]").status());
            assertEquals(5, writer.countStoredPayloads());

            // The public port does not serve the observer's paths, and vice versa.
            Answer onPublic = server.post(server.apiPort(), "/new_block", "{}");
            assertNotEquals(200, onPublic.status());
            assertNotEquals(server.apiPort(), server.observerPort());
        }
    }

    @Test
    void storageFailureIs503SoTheNodeRetriesAndTheApiSaysSo() throws Exception {
        String rawTx = DemoChain.generate(DemoChain.DEFAULT_SEED).mempool().get(0).rawTx();
        try (IngestServer server = IngestServer.start(TestDatabase.H2, "0x00000001")) {
            assertEquals(200, server.get("/extended").status());
            // Pull the database from under the server: the in-memory H2 database is shut down.
            DataSource dataSource = DelegatingDataSource.unwrapDataSource(server.context().getBean(DataSource.class));
            Connection c = dataSource.getConnection();
            c.createStatement().execute("SHUTDOWN"); // the connection dies with the database; nothing to close

            Answer delivery = server.postToObserver("/new_mempool_tx", "[\"" + rawTx + "\"]");
            assertEquals(503, delivery.status(), delivery.raw());
            // Whichever way the failure surfaces (query, connection, transaction), the API says 503.
            for (String probe : PROBES) {
                Answer query = server.get(probe);
                assertEquals(503, query.status(), probe + " " + query.raw());
                assertEquals(503, query.body().get("status").asInt());
                assertTrue(!query.raw().contains("Exception"), "no internals in the answer: " + query.raw());
            }
        }
    }

    @Test
    void replayIsIdempotentAndRebuildReproducesEveryAnswer() throws Exception {
        var folder = IngestServer.sharedData("stacks-node-events");
        Assumptions.assumeTrue(folder.isPresent(), "no shared data");
        Path log = folder.get().resolve("mainnet-reorg-scenario1.tsv");
        try (IngestServer server = IngestServer.start(TestDatabase.H2, "0x00000001")) {
            TsvReplay.Summary first = TsvReplay.replay(log, server.ingestor(), true, n -> { });
            assertEquals(50, first.derived().blocks());
            List<JsonNode> before = PROBES.stream().map(p -> server.get(p).body()).toList();

            TsvReplay.Summary again = TsvReplay.replay(log, server.ingestor(), true, n -> { });
            assertEquals(0, again.derived().blocks());
            assertEquals(0, again.derived().transactions());
            assertEquals(before, PROBES.stream().map(p -> server.get(p).body()).toList(), "rerun changes nothing");

            server.ingestor().rebuild(id -> { });
            assertEquals(before, PROBES.stream().map(p -> server.get(p).body()).toList(), "rebuild reproduces it");
        }
    }
}
