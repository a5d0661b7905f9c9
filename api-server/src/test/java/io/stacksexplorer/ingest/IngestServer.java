package io.stacksexplorer.ingest;

import io.stacksexplorer.http.SharedData;
import io.stacksexplorer.http.TestDatabase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The real server on a random port with the event observer on a random free port, over a fresh database. */
final class IngestServer implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();


    record Answer(int status, JsonNode body, String raw, java.net.http.HttpHeaders headers) {
    }

    private final EmbeddedServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    private IngestServer(EmbeddedServer server) {
        this.server = server;
    }

    static boolean postgresEnabled() {
        return TestDatabase.postgresEnabled();
    }

    static IngestServer start(TestDatabase database, String chainId) {
        return start(database, chainId, Map.of());
    }

    /** With {@code extra} properties on top of {@link #properties}. */
    static IngestServer start(TestDatabase database, String chainId, Map<String, Object> extra) {
        Map<String, Object> props = properties(database, chainId);
        props.putAll(extra);
        return new IngestServer(ApplicationContext.run(EmbeddedServer.class, props));
    }

    /** A fresh database (see {@link TestDatabase}) with the listener on a random port. */
    static Map<String, Object> properties(TestDatabase database, String chainId) {
        Map<String, Object> props = new HashMap<>(database.freshProperties());
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
        return get(pathAndQuery, Map.of());
    }

    Answer get(String pathAndQuery, Map<String, String> headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + apiPort() + pathAndQuery)).GET();
        headers.forEach(builder::header);
        return send(builder.build());
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
            return new Answer(response.statusCode(), body, response.body(), response.headers());
        } catch (IOException e) {
            throw new IllegalStateException(request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        TestDatabase.dropSchemaOf(server.getApplicationContext());
        server.close();
    }

    /** {@code <project root>/../shared/data/<name>}, the root being the first ancestor holding spec and api-server. */
    static Optional<Path> sharedData(String name) {
        return SharedData.folder(name);
    }
}
