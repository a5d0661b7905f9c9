package io.stacksexplorer.ops;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.config.RunModeSettings;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.web.AnswerCacheProbe;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The answer cache (web.AnswerCache, {@link CommitWatch}) on a real PostgreSQL: a kept answer is
 * served without reading the database, this process's own commits are seen at once, another
 * process's within the watch interval, and on H2 nothing is kept. The outage side (503 at once when
 * the server goes down) is {@link DatabaseOutagePostgresTest}, which runs with the cache on.
 */
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class AnswerCachePostgresTest {

    private static final List<NewBlock> CHAIN = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks();

    @Test
    void ownCommitsAreSeenBeforeTheWriterReturns() throws Exception {
        try (ApplicationContext context = server(TestDatabase.POSTGRES.freshProperties())) {
            String api = api(context);
            ChainWriter writer = context.getBean(ChainWriter.class);
            CHAIN.stream().limit(3).forEach(writer::writeBlock);
            waitUntilWatching(context);
            for (int height = 4; height <= 12; height++) {
                // Asked before and after each commit, with no pause: the kept answer of height - 1
                // must never outlive the commit of the next block.
                assertTrue(Http.get(api + "/extended/v2/blocks/latest").body().contains("\"height\":" + (height - 1)));
                writer.writeBlock(CHAIN.get(height - 1));
                Http.Answer latest = Http.get(api + "/extended/v2/blocks/latest");
                assertTrue(latest.body().contains("\"height\":" + height), latest.body());
            }
            TestDatabase.dropSchemaOf(context);
        }
    }

    @Test
    void aKeptAnswerIsServedWithoutReadingTheDatabase() throws Exception {
        // A reader whose watch would next look after an hour: only its own commits (none) move it.
        besideAWriter(Map.of("stacks.answer-cache.watch-interval", "1h"), (shared, writer, api) -> {
            Http.Answer first = Http.get(api + "/extended/v2/blocks/2");
            assertEquals(200, first.status(), first.body());
            String time = "\"burn_block_time\":";
            assertFalse(first.body().contains(time + "12345,"), first.body());

            try (Connection sql = connection(shared); Statement st = sql.createStatement()) {
                assertEquals(1, st.executeUpdate("UPDATE blocks SET burn_block_time = 12345 WHERE block_height = 2"));
            }
            Http.Answer kept = Http.get(api + "/extended/v2/blocks/2");
            assertEquals(first.body(), kept.body(), "the same request line, no commit seen: the kept answer");
            assertEquals(first.header("ETag"), kept.header("ETag"));
            Http.Answer head = Http.head(api + "/extended/v2/blocks/2");
            assertEquals(200, head.status());
            assertEquals(first.header("ETag"), head.header("ETag"));
            assertEquals(String.valueOf(first.body().length()), head.header("Content-Length"));
            assertEquals("", head.body());
            // Another request line reads the database, which has the change.
            Http.Answer other = Http.get(api + "/extended/v2/blocks/2?unanchored=false");
            assertTrue(other.body().contains(time + "12345,"), other.body());
        });
    }

    @Test
    void anotherProcessesCommitIsSeenWithinTheWatchInterval() throws Exception {
        besideAWriter(Map.of(), (shared, writer, api) -> {
            assertTrue(Http.get(api + "/extended/v2/blocks/latest").body().contains("\"height\":3"));
            writer.writeBlock(CHAIN.get(3));
            long committed = System.nanoTime();
            Http.Answer seen = Wait.until(() -> Http.get(api + "/extended/v2/blocks/latest"),
                    a -> a.body().contains("\"height\":4"), 10);
            long lagMillis = (System.nanoTime() - committed) / 1_000_000;
            assertTrue(seen.body().contains("\"height\":4"), seen.body());
            // The watch interval is 50 ms; a second is the loose bound of a loaded machine.
            assertTrue(lagMillis < 1_000, "seen after " + lagMillis + " ms");
        });
    }

    @Test
    void aLargeAnswerIsKeptCompressedAndServedAsTheRouteRenderedIt() throws Exception {
        Map<String, Object> properties = TestDatabase.POSTGRES.freshProperties();
        try (ApplicationContext context = server(properties)) {
            String api = api(context);
            ChainWriter writer = context.getBean(ChainWriter.class);
            CHAIN.stream().limit(60).forEach(writer::writeBlock);
            waitUntilWatching(context);
            Wait.until(() -> AnswerCacheProbe.applied(context), applied -> applied, 10);
            List<String> ids = new ArrayList<>();
            try (Connection sql = connection(properties); Statement st = sql.createStatement();
                 ResultSet rs = st.executeQuery("SELECT tx_id FROM txs WHERE canonical ORDER BY block_height, tx_index LIMIT 20")) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            String line = api + "/extended/v1/tx/multiple?tx_id=" + String.join("&tx_id=", ids);
            Http.Answer routed = Http.get(line);
            assertEquals(200, routed.status(), routed.body());
            int length = routed.body().getBytes(StandardCharsets.UTF_8).length;
            assertTrue(length >= 8 * 1024, "an answer the cache keeps compressed: " + length + " bytes");
            long asJson = Wait.until(() -> AnswerCacheProbe.keptBytes(context), bytes -> bytes > 0, 10);
            assertTrue(asJson >= length, "kept as JSON until asked again: " + asJson + " bytes for " + length);
            long hits = AnswerCacheProbe.hits(context);
            for (int ask = 1; ask <= 2; ask++) {
                // Asked again: the kept answer, which the first hit compresses; the second is served from that.
                Http.Answer kept = Http.get(line);
                assertEquals(hits + ask, AnswerCacheProbe.hits(context), "asked again: the kept answer");
                assertEquals(routed.body(), kept.body());
                assertEquals(routed.header("ETag"), kept.header("ETag"));
                assertEquals(String.valueOf(length), kept.header("Content-Length"));
            }
            long held = Wait.until(() -> AnswerCacheProbe.keptBytes(context), bytes -> bytes * 3 < length, 10);
            assertTrue(held > 0, "kept as its gzip coding: " + held + " bytes for " + length);

            HttpResponse<byte[]> gzipped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(line))
                    .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(hits + 3, AnswerCacheProbe.hits(context), "a gzip client gets the kept answer too");
            assertEquals("gzip", gzipped.headers().firstValue("Content-Encoding").orElse(null));
            String etag = routed.header("ETag");
            assertEquals(etag.substring(0, etag.length() - 1) + "-gzip\"", gzipped.headers().firstValue("ETag").orElse(null));
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
                assertEquals(routed.body(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            TestDatabase.dropSchemaOf(context);
        }
    }

    /** What a test does with a readonly server beside a writer of its own (another "process"). */
    @FunctionalInterface
    private interface ReaderWork {
        void run(Map<String, Object> shared, ChainWriter writer, String readerApi) throws Exception;
    }

    /** A writer with three blocks on a fresh schema, a readonly server on it (with {@code readerExtra}), watching. */
    private static void besideAWriter(Map<String, Object> readerExtra, ReaderWork work) throws Exception {
        Map<String, Object> shared = TestDatabase.POSTGRES.freshProperties();
        try (ApplicationContext writerContext = server(shared)) {
            ChainWriter writer = writerContext.getBean(ChainWriter.class);
            CHAIN.stream().limit(3).forEach(writer::writeBlock);
            Map<String, Object> readerProps = new HashMap<>(shared);
            readerProps.putAll(RunModeSettings.readonlyProperties());
            readerProps.putAll(readerExtra);
            try (ApplicationContext reader = server(readerProps)) {
                waitUntilWatching(reader);
                // An answer is kept once the cache follows the change log (it starts with a request).
                Wait.until(() -> AnswerCacheProbe.applied(reader), applied -> applied, 10);
                work.run(shared, writer, api(reader));
            } finally {
                TestDatabase.dropSchemaOf(writerContext);
            }
        }
    }

    @Test
    void switchedOffOrOnH2NothingIsKept() throws Exception {
        Map<String, Object> off = TestDatabase.POSTGRES.freshProperties();
        off.put("stacks.answer-cache.enabled", false);
        try (ApplicationContext context = server(off)) {
            assertFalse(context.getBean(CommitWatch.class).applies());
            assertEquals(CommitWatch.UNKNOWN, context.getBean(CommitWatch.class).version());
            TestDatabase.dropSchemaOf(context);
        }
        try (ApplicationContext context = server(TestDatabase.H2.freshProperties())) {
            assertFalse(context.getBean(CommitWatch.class).applies());
            assertEquals(CommitWatch.UNKNOWN, context.getBean(CommitWatch.class).version());
        }
    }

    private static ApplicationContext server(Map<String, Object> properties) {
        return ApplicationContext.run(EmbeddedServer.class, properties).getApplicationContext();
    }

    private static String api(ApplicationContext context) {
        return context.getBean(EmbeddedServer.class).getURL().toString();
    }

    /** The watch reads its first snapshot on its own thread, started by the first request. */
    private static void waitUntilWatching(ApplicationContext context) throws InterruptedException {
        CommitWatch watch = context.getBean(CommitWatch.class);
        assertTrue(watch.applies());
        Wait.until(watch::version, v -> v != CommitWatch.UNKNOWN, 10);
    }

    /** A plain connection to the schema of a test context's properties, outside its server. */
    private static Connection connection(Map<String, Object> properties) throws Exception {
        Connection c = DriverManager.getConnection(properties.get("datasources.default.url").toString(),
                properties.get("datasources.default.username").toString(),
                String.valueOf(properties.getOrDefault("datasources.default.password", "")));
        try (Statement st = c.createStatement()) {
            st.execute("SET search_path TO " + properties.get("flyway.datasources.default.schemas"));
        }
        return c;
    }
}
