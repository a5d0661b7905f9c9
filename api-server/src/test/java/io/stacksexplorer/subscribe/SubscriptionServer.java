package io.stacksexplorer.subscribe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.EventObserverListener;
import io.stacksexplorer.ingest.NodeFeeder;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real server with its event observer over a database that outlives it (an H2 file or a
 * PostgreSQL schema), so that a test can stop and start it again on the same data.
 */
final class SubscriptionServer implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, Object> props;
    private final HttpClient http = HttpClient.newHttpClient();
    private EmbeddedServer server;
    private NodeFeeder feeder;

    private SubscriptionServer(Map<String, Object> props) {
        this.props = props;
        start();
    }

    static SubscriptionServer start(TestDatabase database, String chainId, Map<String, Object> extra) throws IOException {
        Map<String, Object> props = new HashMap<>(database.freshProperties());
        if (database == TestDatabase.H2) {
            Path dir = Files.createTempDirectory("subscriptions");
            dir.toFile().deleteOnExit();
            props.putAll(StorageSettings.properties(Map.of("H2_FILE", dir.resolve("db").toString())));
        }
        props.put("stacks.chain-id", chainId);
        props.put("stacks.event-observer.enabled", true);
        props.put("stacks.event-observer.port", 0);
        props.put("micronaut.server.host", "127.0.0.1");
        props.putAll(extra);
        return new SubscriptionServer(props);
    }

    private void start() {
        server = ApplicationContext.run(EmbeddedServer.class, props);
        feeder = new NodeFeeder("127.0.0.1", observerPort(), NodeFeeder.Connections.KEEP_ALIVE);
    }

    /** Stops the server (the database stays) and starts it again on new ports. */
    void restart() {
        stopServer();
        start();
    }

    private void stopServer() {
        feeder.close();
        server.close();
    }

    ApplicationContext context() {
        return server.getApplicationContext();
    }

    int apiPort() {
        return server.getPort();
    }

    int observerPort() {
        return context().getBean(EventObserverListener.class).port();
    }

    String wsUrl() {
        return "ws://127.0.0.1:" + apiPort() + "/extended/v1/ws";
    }

    /** POSTs payloads to the observer in order, one at a time, as a node does; each must be answered 200. */
    void post(List<NodeFeeder.Payload> payloads) throws IOException {
        for (NodeFeeder.Payload p : payloads) {
            int status = feeder.post(p);
            if (status != 200) {
                throw new IllegalStateException(p.path() + " answered " + status);
            }
        }
    }

    record Answer(int status, JsonNode body, String raw) {
    }

    Answer get(String pathAndQuery) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + apiPort() + pathAndQuery)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = null;
            try {
                body = r.body().isEmpty() ? null : JSON.readTree(r.body());
            } catch (IOException e) {
                // not JSON
            }
            return new Answer(r.statusCode(), body, r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        TestDatabase.dropSchemaOf(context());
        stopServer();
    }
}
