package io.stacksexplorer.ops;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.ingest.EventObserverListener;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * PostgreSQL goes away under a running server and comes back: meanwhile every API request and
 * every observer delivery answers 503 quickly (problem+json, Retry-After; the node retries), the
 * readiness probe is DOWN; afterwards everything answers 200 again without a restart. The timing
 * is asserted loosely here (the old behaviour was 30 s); {@link DatabaseOutageBenchmark} measures it.
 * In both observer modes: deriving after the answer (PostgreSQL's default) and before it.
 */
class DatabaseOutagePostgresTest {

    /** Far above the pool's 500 ms, far below the old 30 s hang; machine-independent. */
    static final long LOOSE_LIMIT_MILLIS = 5_000;

    static Map<String, Object> serverProperties(PgCluster cluster) {
        Map<String, Object> props = cluster.serverProperties(null);
        props.put("stacks.event-observer.enabled", true);
        props.put("stacks.event-observer.port", 0);
        return props;
    }

    @ParameterizedTest(name = "observer derives after the answer: {0}")
    @ValueSource(booleans = {true, false})
    void outageAnswers503FastAndRecoversWithoutRestart(boolean deriveAfterAnswer) throws Exception {
        assumeTrue(PgCluster.available(), "needs -Dpg.tests=true and the postgresql server binaries");
        try (PgCluster cluster = PgCluster.primary()) {
            Map<String, Object> props = serverProperties(cluster);
            props.put("stacks.event-observer.derive-after-answer", deriveAfterAnswer);
            try (ApplicationContext context = ApplicationContext.run(EmbeddedServer.class, props).getApplicationContext()) {
                outageAndRecovery(cluster, context);
            }
        }
    }

    private static void outageAndRecovery(PgCluster cluster, ApplicationContext context) throws Exception {
        String api = context.getBean(EmbeddedServer.class).getURL().toString();
        String observer = "http://127.0.0.1:" + context.getBean(EventObserverListener.class).port();
        ChainWriter writer = context.getBean(ChainWriter.class);
        DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().stream().limit(3).forEach(writer::writeBlock);
        assertEquals(200, Http.get(api + "/extended/v2/blocks/3").status());
        assertEquals(200, Http.post(observer + "/attachments/new", "[]").status());

        cluster.stop();
        for (String path : List.of("/extended/v2/blocks/3", "/extended", "/extended/v1/tx/multiple?tx_id=0x"
                + "ab".repeat(32))) {
            Http.Answer down = Http.get(api + path);
            assertEquals(503, down.status(), path + ": " + down.body());
            assertTrue(down.contentType().startsWith("application/problem+json"), down.contentType());
            assertTrue(down.body().contains(Unavailable.UNREACHABLE), down.body());
            assertEquals("5", down.header("Retry-After"));
            assertTrue(down.millis() < LOOSE_LIMIT_MILLIS, path + " took " + down.millis() + " ms");
        }
        // Many at once (more than the pool has connections): none hangs, all 503.
        HttpClient client = HttpClient.newHttpClient();
        long started = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> burst = IntStream.range(0, 30)
                .mapToObj(i -> client.sendAsync(HttpRequest.newBuilder(URI.create(api + "/extended/v2/blocks/" + (1 + i % 3)))
                        .build(), HttpResponse.BodyHandlers.ofString())).toList();
        for (CompletableFuture<HttpResponse<String>> f : burst) {
            assertEquals(503, f.get().statusCode(), f.get().body());
        }
        long burstMillis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(burstMillis < 3 * LOOSE_LIMIT_MILLIS, "30 concurrent requests took " + burstMillis + " ms");
        Http.Answer delivery = Http.post(observer + "/attachments/new", "[]");
        assertEquals(503, delivery.status(), "the node must retry: " + delivery.body());
        assertTrue(delivery.millis() < LOOSE_LIMIT_MILLIS, "observer took " + delivery.millis() + " ms");
        Http.Answer ready = Http.get(api + "/health/readiness");
        assertEquals(503, ready.status(), ready.body());
        assertTrue(ready.body().contains("DOWN"), ready.body());
        assertEquals(200, Http.get(api + "/health/liveness").status(), "alive: a restart would not help");

        cluster.start();
        Http.Answer back = Wait.until(() -> Http.get(api + "/extended/v2/blocks/3"), a -> a.status() == 200, 30);
        assertTrue(back.body().contains("\"height\":3"), back.body());
        assertEquals(200, Http.post(observer + "/attachments/new", "[]").status());
        assertEquals(200, Http.get(api + "/health/readiness").status());
        // Deriving after the answer, what was answered before or across the outage is derived
        // once the database is back (the deriving thread retries), without a restart.
        EventObserverListener listener = context.getBean(EventObserverListener.class);
        assertEquals(0, Wait.until(listener::payloadsNotDerived, n -> n == 0, 30), "answered and never derived");
    }
}
