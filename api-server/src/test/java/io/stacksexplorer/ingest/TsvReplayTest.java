package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replay's batching (payloads prepared on a reader thread, one database transaction per batch,
 * payload existence checked in bulk, consecutive mempool deliveries written together) keeps the
 * meaning of one delivery at a time: a repeated delivery inside one batch is stored and derived
 * once, and a malformed line stops a strict replay exactly there, with everything before it stored
 * and derived. On H2, and on PostgreSQL (with {@code -Dpg.tests=true}), where a batch's payloads are
 * committed ahead of its derivation on a second connection.
 */
class TsvReplayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path log;
    static List<String> lines;
    static JsonNode summary;

    @BeforeAll
    static void generate() throws IOException {
        log = dir.resolve("generated.tsv");
        assertEquals(0, new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions", "1500",
                "--seed", "3"));
        lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        summary = JSON.readTree(dir.resolve("generated.tsv.summary.json").toFile());
    }

    static List<TestDatabase> databases() {
        return TestDatabase.postgresEnabled() ? List.of(TestDatabase.H2, TestDatabase.POSTGRES) : List.of(TestDatabase.H2);
    }

    @FunctionalInterface
    private interface WithServer {
        void run(ApiServer api) throws IOException;
    }

    /** A server on a fresh database, whose schema is dropped afterwards (PostgreSQL). */
    private static void onFreshDatabase(TestDatabase database, WithServer work) throws IOException {
        try (ApiServer api = ApiServer.start(database)) {
            try {
                work.run(api);
            } finally {
                TestDatabase.dropSchemaOf(api.context());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aDeliveryRepeatedWithinOneBatchIsStoredAndDerivedOnce(TestDatabase database) throws IOException {
        // Every 7th line delivered twice in a row (as a node retrying after a lost answer does), so
        // that both copies fall into the same batch of the replay.
        List<String> repeated = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            repeated.add(lines.get(i));
            if (i % 7 == 0) {
                repeated.add(lines.get(i));
            }
        }
        Path withRepeats = dir.resolve("repeats.tsv");
        Files.write(withRepeats, repeated, StandardCharsets.UTF_8);

        List<List<JsonNode>> clean = new ArrayList<>();
        onFreshDatabase(database, api -> {
            TsvReplay.replay(log, api.context().getBean(EventIngestor.class), true, n -> { });
            clean.add(answers(api));
        });
        onFreshDatabase(database, api -> {
            EventIngestor ingestor = api.context().getBean(EventIngestor.class);
            TsvReplay.Summary replayed = TsvReplay.replay(withRepeats, ingestor, true, n -> { });
            assertEquals(repeated.size(), replayed.lines());
            assertEquals(lines.size(), ingestor.storedPayloadCount(), "each distinct payload stored once");
            assertEquals(summary.get("blocks").asLong() + summary.get("orphaned_blocks").asLong(),
                    replayed.derived().blocks(), "each block derived once");
            assertEquals(clean.get(0), answers(api), "the same answers as the log without repeats");
        });
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aStrictReplayStopsAtAMalformedLineWithEverythingBeforeItStoredAndDerived(TestDatabase database)
            throws IOException {
        int bad = 300;
        List<String> broken = new ArrayList<>(lines);
        broken.add(bad - 1, "999999\t2024-01-01 00:00:00+00\t/new_block\t{\"not\": \"a block\"");
        Path brokenLog = dir.resolve("broken.tsv");
        Files.write(brokenLog, broken, StandardCharsets.UTF_8);

        onFreshDatabase(database, api -> {
            EventIngestor ingestor = api.context().getBean(EventIngestor.class);
            MalformedPayloadException stop = assertThrows(MalformedPayloadException.class,
                    () -> TsvReplay.replay(brokenLog, ingestor, true, n -> { }));
            assertTrue(stop.getMessage().startsWith("broken.tsv:" + bad + ": "), stop.getMessage());
            assertEquals(bad - 1, ingestor.storedPayloadCount(), "the lines before the bad one are stored");
            assertTrue(api.context().getBean(ChainWriter.class).backlog().isEmpty(), "and derived");
        });
        onFreshDatabase(database, api -> {
            EventIngestor ingestor = api.context().getBean(EventIngestor.class);
            TsvReplay.Summary replayed = TsvReplay.replay(brokenLog, ingestor, false, n -> { });
            assertEquals(1, replayed.rejected());
            assertEquals(broken.size(), replayed.lines());
            assertEquals(lines.size(), ingestor.storedPayloadCount(), "everything else stored");
            assertEquals(summary.get("blocks").asLong() + summary.get("orphaned_blocks").asLong(),
                    replayed.derived().blocks(), "and every block derived");
        });
    }

    private static List<JsonNode> answers(ApiServer api) {
        String hot = summary.get("hot_address").asText();
        String contract = summary.get("hot_contract").asText();
        return List.of(
                api.get("/extended").body().get("chain_tip"),
                api.get("/extended/v2/blocks/latest").body(),
                api.get("/extended/v2/addresses/" + hot + "/transactions?limit=50").body(),
                api.get("/extended/v1/contract/" + contract + "/events?limit=50").body(),
                api.get("/extended/v1/address/" + hot + "/mempool").body());
    }
}
