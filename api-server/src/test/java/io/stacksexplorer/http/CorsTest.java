package io.stacksexplorer.http;

import io.stacksexplorer.config.CorsSettings;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.ingest.EventObserverListener;
import io.stacksexplorer.ops.MetricsListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Browsers on other origins (Micronaut's CORS, {@code micronaut.server.cors} in application.yml):
 * every origin reads every answer of the public port with its ETag, whatever the Host it was sent
 * to; preflights are 204; {@code STACKS_API_CORS_ORIGINS} restricts the origins; the event observer
 * and the metrics listener never answer browsers. Raw sockets, so that the test chooses the
 * {@code Host} header and sees every header line.
 */
class CorsTest {

    static final String FOREIGN = "https://wallet.example.com";

    private static ApiServer open;
    private static ApiServer restricted;

    @BeforeAll
    static void start() {
        open = ApiServer.start(properties(Map.of()));
        DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().stream().limit(5).forEach(open.writer()::writeBlock);
        restricted = ApiServer.start(properties(Map.of(CorsSettings.ORIGINS_VARIABLE,
                "https://Explorer.example.com/, http://localhost:3000")));
    }

    /** A fresh H2 database with the event observer and the metrics listener on free ports. */
    private static Map<String, Object> properties(Map<String, String> env) {
        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("stacks.event-observer.enabled", true);
        props.put("stacks.event-observer.port", 0);
        props.put("stacks.metrics.enabled", true);
        props.put("stacks.metrics.port", 0);
        props.putAll(CorsSettings.properties(env));
        return props;
    }

    @AfterAll
    static void stop() {
        for (ApiServer server : new ApiServer[]{open, restricted}) {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void everyOriginReadsEveryAnswerWhateverTheHost() {
        // Before, Micronaut refused (403, empty body) any foreign Origin sent to a localhost Host and
        // served other Hosts without CORS headers.
        for (String host : List.of("localhost:" + open.port(), "127.0.0.1:" + open.port(), "api.example.org")) {
            for (Map.Entry<String, Integer> route : Map.of("/extended", 200, "/extended/v2/blocks/3", 200,
                    "/extended/v2/blocks/999", 404, "/extended/v2/blocks/0xnothex", 400, "/health/liveness", 200,
                    "/extended/openapi.yaml", 200).entrySet()) {
                for (String method : List.of("GET", "HEAD")) {
                    RawHttp.Response answer = open.raw(method, route.getKey(), Map.of("Host", host, "Origin", FOREIGN));
                    String what = method + " " + route.getKey() + " Host " + host + ": " + answer;
                    assertEquals(route.getValue(), answer.status(), what);
                    assertEquals(FOREIGN, answer.header("Access-Control-Allow-Origin"), what);
                    assertTrue(answer.headers("Vary").contains("Origin"), what);
                    assertNull(answer.header("Access-Control-Allow-Credentials"), what);
                    assertEquals(List.of("ETag", "Retry-After"), exposed(answer), what);
                }
            }
        }
        RawHttp.Response block = open.raw("GET", "/extended/v2/blocks/3", Map.of("Origin", FOREIGN));
        assertTrue(block.header("ETag").matches("\"[0-9a-f]{32}\""), block.toString());
    }

    @Test
    void preflightsAre204WithTheMethodAndHeadersAsked() {
        for (String method : List.of("GET", "HEAD")) {
            RawHttp.Response preflight = open.raw("OPTIONS", "/extended/v2/blocks/3", Map.of("Origin", FOREIGN,
                    "Access-Control-Request-Method", method, "Access-Control-Request-Headers", "if-none-match"));
            String what = "preflight " + method + ": " + preflight;
            assertEquals(204, preflight.status(), what);
            assertEquals(0, preflight.body().length);
            assertEquals(method, preflight.header("Access-Control-Allow-Methods"), what);
            assertEquals("if-none-match", preflight.header("Access-Control-Allow-Headers"), what);
            assertEquals(FOREIGN, preflight.header("Access-Control-Allow-Origin"), what);
            assertEquals("1800", preflight.header("Access-Control-Max-Age"), what);
        }
        // A preflight on another Host, and for a route of the operations only (no route answers OPTIONS).
        RawHttp.Response elsewhere = open.raw("OPTIONS", "/extended/v1/status", Map.of("Host", "api.example.org",
                "Origin", FOREIGN, "Access-Control-Request-Method", "GET"));
        assertEquals(204, elsewhere.status(), elsewhere.toString());
        assertEquals(FOREIGN, elsewhere.header("Access-Control-Allow-Origin"));
    }

    @Test
    void aNotModifiedAnswerKeepsTheCorsHeaders() {
        String etag = open.raw("GET", "/extended/v2/blocks/3", Map.of()).header("ETag");
        RawHttp.Response answer = open.raw("GET", "/extended/v2/blocks/3", Map.of("Origin", FOREIGN,
                "If-None-Match", etag));
        assertEquals(304, answer.status(), answer.toString());
        assertEquals(etag, answer.header("ETag"));
        assertEquals(FOREIGN, answer.header("Access-Control-Allow-Origin"));
        assertEquals(List.of("ETag", "Retry-After"), exposed(answer));
    }

    @Test
    void anOperatorsListAdmitsItsOriginsOnly() {
        for (String origin : List.of("https://explorer.example.com", "http://localhost:3000")) {
            RawHttp.Response answer = restricted.raw("GET", "/extended", Map.of("Origin", origin));
            assertEquals(200, answer.status(), answer.toString());
            assertEquals(origin, answer.header("Access-Control-Allow-Origin"), answer.toString());
            assertEquals(List.of("ETag", "Retry-After"), exposed(answer));
            RawHttp.Response preflight = restricted.raw("OPTIONS", "/extended", Map.of("Origin", origin,
                    "Access-Control-Request-Method", "GET"));
            assertEquals(204, preflight.status(), preflight.toString());
            assertEquals(origin, preflight.header("Access-Control-Allow-Origin"));
        }
        // Another origin: the answer is not one a browser lets the page read.
        RawHttp.Response other = restricted.raw("GET", "/extended", Map.of("Origin", FOREIGN));
        assertEquals(200, other.status(), other.toString());
        assertNull(other.header("Access-Control-Allow-Origin"), other.toString());
        RawHttp.Response preflight = restricted.raw("OPTIONS", "/extended", Map.of("Origin", FOREIGN,
                "Access-Control-Request-Method", "GET"));
        assertTrue(preflight.status() >= 400, preflight.toString());
        assertNull(preflight.header("Access-Control-Allow-Origin"), preflight.toString());
    }

    @Test
    void theEventObserverAndTheMetricsListenerStayClosedToBrowsers() {
        int observer = open.context().getBean(EventObserverListener.class).port();
        int metrics = open.context().getBean(MetricsListener.class).port();
        for (int port : new int[]{observer, metrics}) {
            for (String method : List.of("GET", "OPTIONS")) {
                RawHttp.Response answer = RawHttp.send(port, method, method.equals("GET") ? "/metrics" : "/new_block",
                        Map.of("Origin", FOREIGN, "Access-Control-Request-Method", "POST"));
                assertNull(answer.header("Access-Control-Allow-Origin"), port + " " + method + ": " + answer);
            }
        }
    }

    private static List<String> exposed(RawHttp.Response answer) {
        String header = answer.header("Access-Control-Expose-Headers");
        return header == null ? List.of() : Arrays.stream(header.split(",")).map(String::trim).toList();
    }
}
