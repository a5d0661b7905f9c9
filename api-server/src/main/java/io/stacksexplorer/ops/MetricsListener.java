package io.stacksexplorer.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code GET /metrics} in Prometheus text format on a listener of its own (default
 * 127.0.0.1:9153, as the peer), entirely apart from the public API server: metrics name routes and
 * internals that the public should not see, and a separate socket cannot be reached through the
 * public port whatever the routing does. Runs in every mode, also in {@code writeonly} (no public
 * server) and during {@code replay}.
 */
@Context
@Requires(property = "stacks.metrics.enabled", value = "true")
public class MetricsListener {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsListener.class);
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final HttpServer server;
    private final ExecutorService worker;

    public MetricsListener(PrometheusMeterRegistry registry, MetricsSettings settings) throws IOException {
        this.registry = registry;
        this.server = HttpServer.create(new InetSocketAddress(settings.getHost(), settings.getPort()), 16);
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "metrics");
            t.setDaemon(true);
            return t;
        });
        server.createContext("/", this::handle);
        server.setExecutor(worker);
        server.start();
        LOG.info("metrics on http://{}:{}/metrics", settings.getHost(), port());
    }

    /** The port actually bound (differs from the configured one when that is 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"/metrics".equals(exchange.getRequestURI().getPath())) {
                respond(exchange, 404, "text/plain; charset=utf-8", "only /metrics here\n");
                return;
            }
            respond(exchange, 200, CONTENT_TYPE, registry.scrape());
        }
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @PreDestroy
    void stop() {
        server.stop(0);
        worker.shutdownNow();
    }
}
