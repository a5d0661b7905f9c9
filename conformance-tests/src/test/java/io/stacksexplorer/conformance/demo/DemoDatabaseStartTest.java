package io.stacksexplorer.conformance.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.ingest.TableDump;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's run command as a new user runs it: the packaged {@code api-server.jar} started in an empty
 * folder copies the demo database the build made beside it ({@code api-server/target/demo-chain}), and
 * that database is the one a live start makes: the same jar started with {@code DEMO_DATA_PREBUILT=false}
 * generates and ingests the preset, and every table of the two H2 files holds the same rows. Both answer
 * {@code /extended/v2/blocks/latest} with the demo tip. Skips when the jar or its database was not built
 * (a build with {@code -Ddemo.database.skip=true}).
 */
class DemoDatabaseStartTest {

    private static final Path JAR = Path.of("../api-server/target/api-server.jar").toAbsolutePath().normalize();
    private static final Path BUILT = JAR.resolveSibling("demo-chain");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void aFirstStartCopiesTheBuiltDemoDatabaseWhichEqualsALiveLoad() throws Exception {
        assumeTrue(Files.isRegularFile(JAR) && Files.isDirectory(BUILT), "no packaged jar with its demo database");
        DemoChain.Summary expected = DemoChain.generate(DemoChain.DEFAULT_SEED).summary();

        Path copied = Files.createDirectories(dir.resolve("copied"));
        String copiedLog = startAndStop(copied, Map.of(), expected);
        assertTrue(copiedLog.contains("built with this jar"), copiedLog);

        Path live = Files.createDirectories(dir.resolve("live"));
        String liveLog = startAndStop(live, Map.of("DEMO_DATA_PREBUILT", "false"), expected);
        assertTrue(liveLog.contains("ingested 1131 lines"), liveLog);

        Map<String, List<String>> copiedTables = tables(copied.resolve("data/stacks-explorer"));
        Map<String, List<String>> liveTables = tables(live.resolve("data/stacks-explorer"));
        assertEquals(liveTables.keySet(), copiedTables.keySet());
        assertTrue(copiedTables.get("txs").size() >= expected.txCount());
        List<String> differences = new ArrayList<>();
        for (String table : liveTables.keySet()) {
            List<String> a = liveTables.get(table);
            List<String> b = copiedTables.get(table);
            if (!a.equals(b)) {
                int i = 0;
                while (i < Math.min(a.size(), b.size()) && a.get(i).equals(b.get(i))) {
                    i++;
                }
                differences.add(table + " (" + a.size() + " rows live, " + b.size() + " copied), first difference: "
                        + (i < a.size() ? a.get(i) : "none") + " | " + (i < b.size() ? b.get(i) : "none"));
            }
        }
        assertEquals(List.of(), differences);
    }

    /** Starts the jar in {@code folder}, checks the tip, stops it with SIGTERM; returns its output. */
    private static String startAndStop(Path folder, Map<String, String> env, DemoChain.Summary expected)
            throws Exception {
        int port = freePort();
        // README's run command: the class-data archive the build made beside the jar, then the jar
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:SharedArchiveFile=" + JAR.resolveSibling("api-server.jsa"), "-Xmx512m", "-jar", JAR.toString()).directory(folder.toFile()).redirectErrorStream(true)
                .redirectOutput(folder.resolve("server.log").toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("PG_") || k.startsWith("H2_") || k.startsWith("DEMO_"));
        builder.environment().putAll(Map.of("STACKS_BLOCKCHAIN_API_PORT", String.valueOf(port),
                "STACKS_CORE_EVENT_PORT", String.valueOf(freePort()), "STACKS_API_METRICS_ENABLED", "false"));
        builder.environment().putAll(env);
        long started = System.nanoTime();
        Process server = builder.start();
        try {
            JsonNode latest = awaitLatest(server, port, folder);
            System.out.printf("%s: first 200 after %.1f s%n", folder.getFileName(), (System.nanoTime() - started) / 1e9);
            assertEquals(expected.tipHeight(), latest.get("height").asLong());
            assertEquals(expected.tipBlockHash(), latest.get("hash").asText());
        } finally {
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
        return Files.readString(folder.resolve("server.log"));
    }

    private static JsonNode awaitLatest(Process server, int port, Path folder) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/extended/v2/blocks/latest"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            assertTrue(server.isAlive(), () -> "the server stopped: " + read(folder.resolve("server.log")));
            try {
                HttpResponse<String> answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return new ObjectMapper().readTree(answer.body());
                }
            } catch (IOException notListeningYet) {
                // the server listens once the demo chain is in place
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no 200 within 180 s: " + read(folder.resolve("server.log")));
    }

    /**
     * Every table of the H2 file but Flyway's history (install times), each as its rows sorted; the
     * change log's {@code recorded_at} is when a row was written (the write path's clock, so that
     * subscribers can tell the age of a change), not what it says, and differs between any two loads.
     */
    private static Map<String, List<String>> tables(Path base) throws SQLException {
        try (Connection c = DriverManager.getConnection(StorageSettings.h2FileUrl(base) + ";ACCESS_MODE_DATA=r", "sa", "")) {
            return TableDump.of(c, TableDump.everyTable(c), Set.of("change_log.recorded_at"), Map.of());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
