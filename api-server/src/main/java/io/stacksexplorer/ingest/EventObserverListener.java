package io.stacksexplorer.ingest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The stacks-node event observer: its own HTTP server on its own address, entirely apart from the
 * public API server (a different listener, not a route of it), so it can never be reached through
 * the public port. One thread handles one delivery at a time, so payloads are processed strictly
 * in the order they arrive; the node waits for each answer before sending the next.
 *
 * <p>Answers: 200 once stored (or when already stored, or for a path nothing is derived from);
 * 400 with the reason for a payload that cannot be understood (nothing written); 503 when the
 * database is unavailable, so that the node retries.
 */
@Context
@Requires(property = "stacks.event-observer.enabled", value = "true")
public class EventObserverListener {

    private static final Logger LOG = LoggerFactory.getLogger(EventObserverListener.class);

    private final EventIngestor ingestor;
    private final EventObserverConfig config;
    private final HttpServer server;
    private final ExecutorService worker;

    public EventObserverListener(EventIngestor ingestor, EventObserverConfig config) throws IOException {
        this.ingestor = ingestor;
        this.config = config;
        this.server = HttpServer.create(new InetSocketAddress(config.getHost(), config.getPort()), 64);
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "event-observer");
            t.setDaemon(false);
            return t;
        });
        server.createContext("/", this::handle);
        server.setExecutor(worker);
        server.start();
        LOG.info("event observer listening on {}:{}", config.getHost(), port());
    }

    /** The port actually bound (differs from the configured one when that is 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        try (exchange) {
            if (!"POST".equalsIgnoreCase(exchange.getRequestMethod())) {
                // A liveness probe or a mistaken GET: nothing to ingest.
                respond(exchange, 200, "{\"result\":\"ok\"}");
                return;
            }
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                byte[] bytes = in.readNBytes(config.getMaxBodyBytes() + 1);
                if (bytes.length > config.getMaxBodyBytes()) {
                    respond(exchange, 413, problem(413, "Content Too Large", "body larger than " + config.getMaxBodyBytes() + " bytes"));
                    return;
                }
                body = new String(bytes, StandardCharsets.UTF_8);
            }
            try {
                ingestor.ingest(path, body, System.currentTimeMillis() / 1000);
                respond(exchange, 200, "{\"result\":\"ok\"}");
            } catch (MalformedPayloadException e) {
                LOG.warn("rejected {} ({} bytes): {}", path, body.length(), e.getMessage());
                respond(exchange, 400, problem(400, "Bad Request", e.getMessage()));
            } catch (RuntimeException e) {
                LOG.error("could not store {}; the node will retry", path, e);
                respond(exchange, 503, problem(503, "Service Unavailable", "storage unavailable; retry"));
            }
        }
    }

    /** Errors in the same RFC 9457 shape as the public API's, for operators reading node logs. */
    private static String problem(int status, String title, String detail) {
        return NodePayloads.JSON.createObjectNode()
                .put("type", "about:blank")
                .put("title", title)
                .put("status", status)
                .put("detail", detail)
                .toString();
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", status < 400 ? "application/json" : "application/problem+json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @PreDestroy
    void stop() {
        server.stop(0);
        worker.shutdownNow();
    }
}
