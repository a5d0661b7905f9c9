package io.stacksexplorer.ops;

import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Liveness and readiness on the public port; Prometheus metrics on their own listener only. */
class HealthAndMetricsTest {

    private static ApiServer server;
    private static String api;
    private static String metrics;

    @BeforeAll
    static void start() {
        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("stacks.metrics.enabled", true);
        props.put("stacks.metrics.port", 0);
        props.put("stacks.metrics.sample-interval", "200ms");
        server = ApiServer.start(props);
        api = server.context().getBean(EmbeddedServer.class).getURL().toString();
        metrics = "http://127.0.0.1:" + server.context().getBean(MetricsListener.class).port() + "/metrics";
        ChainWriter writer = server.writer();
        DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().stream().limit(5).forEach(writer::writeBlock);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void livenessAndReadinessAreUpWithAReachableMigratedDatabase() {
        Http.Answer live = Http.get(api + "/health/liveness");
        assertEquals(200, live.status(), live.body());
        assertTrue(live.body().contains("\"UP\""), live.body());
        Http.Answer ready = Http.get(api + "/health/readiness");
        assertEquals(200, ready.status(), ready.body());
        assertTrue(ready.body().contains("\"UP\"") && ready.body().contains("database"), ready.body());
    }

    @Test
    void prometheusTextOnTheMetricsListenerOnly() throws Exception {
        assertEquals(200, Http.get(api + "/extended/v2/blocks/3").status());
        assertEquals(404, Http.get(api + "/extended/v2/blocks/999").status());
        assertEquals(400, Http.get(api + "/extended/v2/blocks/0xnothex").status());
        // The first chain sample comes 1 s after start (interval 200 ms in this test); when the demo chain
        // is already generated (cached by an earlier test class) the scrape could come before it.
        Http.Answer scrape = Wait.until(() -> Http.get(metrics),
                a -> a.status() != 200 || a.body().contains("stacks_chain_tip_height 5.0"), 10);
        assertEquals(200, scrape.status());
        assertTrue(scrape.contentType().startsWith("text/plain"), scrape.contentType());
        String text = scrape.body();
        assertMetric(text, "http_server_requests_seconds_bucket\\{.*status=\"200\".*uri=\"/extended/v2/blocks/\\{height_or_hash\\}\".*le=\".*");
        assertMetric(text, "http_server_requests_seconds_count\\{.*status=\"400\".*uri=\"/extended/v2/blocks/\\{height_or_hash\\}\".*\\} 1(\\.0)?");
        // Micrometer files every 404 under uri="NOT_FOUND", so probes of random paths cannot blow up the series.
        assertMetric(text, "http_server_requests_seconds_count\\{.*status=\"404\".*uri=\"NOT_FOUND\".*\\} 1(\\.0)?");
        assertMetric(text, "(hikaricp|jdbc)_connections_(active|max)\\{.*");
        assertMetric(text, "jvm_memory_used_bytes\\{.*");
        assertMetric(text, "stacks_chain_tip_height [0-9.E]+");
        assertMetric(text, "stacks_chain_tip_age_seconds [0-9.E]+");
        assertMetric(text, "stacks_ingest_blocks_total [0-9.E]+");
        assertMetric(text, "stacks_ingest_transactions_total [0-9.E]+");
        assertMetric(text, "stacks_ingest_blocks_per_second [0-9.E]+");
        assertTrue(text.contains("stacks_chain_tip_height 5.0"), "tip of the five written blocks:\n" + grep(text, "stacks_"));
    }

    @Test
    void theMetricsListenerServesOnlyMetrics() {
        String root = metrics.substring(0, metrics.length() - "/metrics".length());
        for (String path : new String[]{"/", "/health", "/metrics/extra", "/extended"}) {
            Http.Answer answer = Http.get(root + path);
            assertEquals(404, answer.status(), path + ": " + answer.body());
            assertEquals("only /metrics here\n", answer.body(), path);
        }
        assertEquals(200, Http.get(metrics + "?name=jvm").status(), "a query does not change the path");
    }

    @Test
    void neverOnThePublicPort() {
        for (String path : new String[]{"/metrics", "/prometheus", "/extended/metrics", "/beans", "/env"}) {
            Http.Answer answer = Http.get(api + path);
            assertEquals(404, answer.status(), path + ": " + answer.body());
            assertFalse(answer.body().contains("jvm_memory"), path);
        }
    }

    private static void assertMetric(String text, String regex) {
        assertTrue(Pattern.compile("(?m)^" + regex + "$").matcher(text).find(),
                "no line matching " + regex + " in\n" + grep(text, regex.substring(0, Math.min(16, regex.length())))
                        + "\nmetrics: " + text.lines().filter(l -> l.startsWith("# TYPE")).toList());
    }

    private static String grep(String text, String prefix) {
        return text.lines().filter(l -> l.contains(prefix.replace("\\", ""))).limit(40).reduce("", (a, b) -> a + b + "\n");
    }
}
