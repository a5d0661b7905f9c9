package io.stacksexplorer.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.stacksexplorer.config.CorsSettings;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.NewBlock;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A page served from another origin (a second local port) in headless Chromium reads each of the
 * seven operations with {@code fetch} and follows new blocks with {@code EventSource}: all of it
 * works and the console stays clean. The same page against a server whose operator allows only
 * other origins ({@code STACKS_API_CORS_ORIGINS}) is refused by the browser.
 */
class CrossOriginBrowserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<NewBlock> CHAIN = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks();

    @Test
    void aPageOnAnotherOriginReadsEveryOperationAndFollowsTheEventStream() throws Exception {
        Optional<Path> chromium = HeadlessChromium.executable();
        assumeTrue(chromium.isPresent(), "chromium is not installed");
        try (ApiServer api = ApiServer.start(properties(Map.of()))) {
            CHAIN.stream().limit(10).forEach(api.writer()::writeBlock);
            HttpServer page = pageServer(api);
            try (HeadlessChromium browser = new HeadlessChromium(chromium.get())) {
                browser.navigate("http://127.0.0.1:" + page.getAddress().getPort() + "/");
                awaitTrue(browser, "window.streamOpen === true");
                // A block written after the stream opened reaches the page.
                api.writer().writeBlock(CHAIN.get(10));
                JsonNode results = awaitResults(browser, 8);
                for (String op : OPERATIONS.keySet()) {
                    assertEquals("200", results.path(op).asText(), op + " from another origin: " + results);
                }
                assertEquals(String.valueOf(CHAIN.get(10).height()), results.path("eventSource").asText(),
                        "the event stream's block: " + results);
                assertTrue(browser.errors.isEmpty(), "browser errors: " + browser.errors);
            } finally {
                page.stop(0);
            }
        }
    }

    @Test
    void aPageOnAnOriginOutsideTheOperatorsListIsRefused() throws Exception {
        Optional<Path> chromium = HeadlessChromium.executable();
        assumeTrue(chromium.isPresent(), "chromium is not installed");
        try (ApiServer api = ApiServer.start(properties(Map.of(CorsSettings.ORIGINS_VARIABLE,
                "https://explorer.example.com")))) {
            CHAIN.stream().limit(10).forEach(api.writer()::writeBlock);
            HttpServer page = pageServer(api);
            try (HeadlessChromium browser = new HeadlessChromium(chromium.get())) {
                browser.navigate("http://127.0.0.1:" + page.getAddress().getPort() + "/");
                JsonNode results = awaitResults(browser, 8);
                for (String op : OPERATIONS.keySet()) {
                    assertEquals("refused", results.path(op).asText(), op + ": " + results);
                }
                assertEquals("refused", results.path("eventSource").asText(), results.toString());
                assertFalse(browser.errors.isEmpty(), "the browser reports the refusals");
            } finally {
                page.stop(0);
            }
        }
    }

    /** The seven operations, by operationId, as the page requests them (the demo chain's data). */
    private static final Map<String, String> OPERATIONS = operations();

    private static Map<String, String> operations() {
        NewBlock block = CHAIN.get(3);
        String txId = block.transactions().get(0).txId();
        String sender = "SP3S9C931DEC0NZWEQBPCW6HGMN8T0TJHED5YDG5S";
        String contract = sender + ".no-such-contract";
        Map<String, String> ops = new java.util.LinkedHashMap<>();
        ops.put("getApiStatus", "/extended");
        ops.put("getBlock", "/extended/v2/blocks/" + block.height());
        ops.put("getTransactionsByIds", "/extended/v1/tx/multiple?tx_id=" + txId);
        ops.put("getContractsStatus", "/extended/v2/smart-contracts/status?contract_id=" + contract);
        ops.put("getContractEvents", "/extended/v1/contract/" + contract + "/events");
        ops.put("getAddressTransactions", "/extended/v2/addresses/" + sender + "/transactions");
        ops.put("getAddressMempoolTransactions", "/extended/v1/address/" + sender + "/mempool");
        return ops;
    }

    private static Map<String, Object> properties(Map<String, String> env) {
        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("micronaut.server.host", "127.0.0.1");
        props.putAll(CorsSettings.properties(env));
        return props;
    }

    /** The page: fetches each operation and opens an EventSource on the API's origin; results in window.results. */
    private static HttpServer pageServer(ApiServer api) throws Exception {
        String base = "http://127.0.0.1:" + api.context().getBean(io.micronaut.runtime.server.EmbeddedServer.class).getPort();
        StringBuilder js = new StringBuilder("const base = '" + base + "';\nwindow.results = {};\n");
        js.append("const ops = ").append(JSON.writeValueAsString(OPERATIONS)).append(";\n");
        js.append("""
                for (const [op, path] of Object.entries(ops)) {
                  fetch(base + path).then(r => r.json().then(() => { results[op] = String(r.status); }))
                    .catch(() => { results[op] = 'refused'; });
                }
                const stream = new EventSource(base + '/extended/v1/stream?event=block');
                stream.onopen = () => { window.streamOpen = true; };
                stream.addEventListener('block', e => { results.eventSource = String(JSON.parse(e.data).height); stream.close(); });
                stream.onerror = () => { if (!window.streamOpen) { results.eventSource = 'refused'; stream.close(); } };
                """);
        byte[] html = ("<!doctype html><html><head><meta charset=\"utf-8\"><title>cross-origin</title>"
                + "<link rel=\"icon\" href=\"data:,\"></head><body><script>" + js + "</script></body></html>")
                .getBytes(StandardCharsets.UTF_8);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, html.length);
            exchange.getResponseBody().write(html);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static void awaitTrue(HeadlessChromium browser, String expression) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            if ("true".equals(browser.evaluate("String(" + expression + ")"))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(expression + " never became true; errors: " + browser.errors);
    }

    private static JsonNode awaitResults(HeadlessChromium browser, int count) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        JsonNode results = JSON.createObjectNode();
        while (System.nanoTime() < deadline) {
            String text = browser.evaluate("JSON.stringify(window.results || {})");
            results = JSON.readTree(text.isEmpty() ? "{}" : text);
            if (results.size() >= count) {
                return results;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("only " + results + " after 30 s; errors: " + browser.errors);
    }
}
