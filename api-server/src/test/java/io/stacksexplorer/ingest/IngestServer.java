package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.config.StorageSettings;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The real server on a random port with the event observer on a random free port, over a fresh database. */
final class IngestServer implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    enum Database { H2, POSTGRES }

    record Answer(int status, JsonNode body, String raw) {
    }

    private final EmbeddedServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    private IngestServer(EmbeddedServer server) {
        this.server = server;
    }

    static boolean postgresEnabled() {
        return Boolean.getBoolean("pg.tests") || "true".equalsIgnoreCase(System.getenv("PG_TESTS"));
    }

    static IngestServer start(Database database, String chainId) {
        return new IngestServer(ApplicationContext.run(EmbeddedServer.class, properties(database, chainId)));
    }

    /** Fresh-database properties: H2 in memory of its own, or a PostgreSQL schema of its own. */
    static Map<String, Object> properties(Database database, String chainId) {
        String name = "i" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        Map<String, String> env = new HashMap<>();
        if (database == Database.POSTGRES) {
            env.put("PG_HOST", envOr("PG_HOST", "127.0.0.1"));
            env.put("PG_PORT", envOr("PG_PORT", "5432"));
            env.put("PG_USER", envOr("PG_USER", "postgres"));
            env.put("PG_PASSWORD", envOr("PG_PASSWORD", ""));
            env.put("PG_DATABASE", envOr("PG_DATABASE", "test"));
            env.put("PG_SCHEMA", name);
        } else {
            env.put("H2_IN_MEMORY", "true");
        }
        Map<String, Object> props = new HashMap<>(StorageSettings.properties(env));
        if (database == Database.H2) {
            props.put("datasources.default.url", props.get("datasources.default.url").toString()
                    .replace("mem:stacks-explorer", "mem:" + name));
        }
        props.put("demo-data.enabled", false);
        props.put("micronaut.server.port", -1);
        props.put("stacks.chain-id", chainId);
        props.put("stacks.event-observer.enabled", true);
        props.put("stacks.event-observer.port", 0);
        return props;
    }

    ApplicationContext context() {
        return server.getApplicationContext();
    }

    EventIngestor ingestor() {
        return context().getBean(EventIngestor.class);
    }

    int apiPort() {
        return server.getPort();
    }

    int observerPort() {
        return context().getBean(EventObserverListener.class).port();
    }

    Answer get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + apiPort() + pathAndQuery)).GET().build());
    }

    Answer postToObserver(String path, String body) {
        return post(observerPort(), path, body);
    }

    Answer post(int port, String path, String body) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = null;
            try {
                body = response.body().isEmpty() ? null : JSON.readTree(response.body());
            } catch (IOException e) {
                // not JSON
            }
            return new Answer(response.statusCode(), body, response.body());
        } catch (IOException e) {
            throw new IllegalStateException(request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.close();
    }

    private static String envOr(String key, String fallback) {
        String v = System.getenv(key);
        return v == null || v.isBlank() ? fallback : v;
    }

    /** {@code <project root>/../shared/data/<name>}, the root being the first ancestor holding spec and api-server. */
    static Optional<Path> sharedData(String name) {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isDirectory(dir.resolve("spec")) && Files.isDirectory(dir.resolve("api-server"))) {
                Path data = dir.resolveSibling("shared").resolve("data").resolve(name);
                return Files.isDirectory(data) ? Optional.of(data) : Optional.empty();
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }
}
