package io.stacksexplorer.subscribe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** A JSON-RPC client on the JDK's WebSocket: every message received, in order, in a queue. */
public final class WsClient implements AutoCloseable {

    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final WebSocket socket;
    private int nextId;

    /** {@code onNotification} runs on the receiving thread before the next message is read. */
    public WsClient(String url, Consumer<JsonNode> onNotification) {
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create(url), new WebSocket.Listener() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                        text.append(data);
                        if (last) {
                            try {
                                JsonNode message = SubscriptionServer.JSON.readTree(text.toString());
                                if (message.has("method")) {
                                    onNotification.accept(message);
                                }
                                received.add(message);
                            } catch (IOException e) {
                                received.add(SubscriptionServer.JSON.createObjectNode().put("unparsable", text.toString()));
                            }
                            text.setLength(0);
                        }
                        ws.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                        closed.complete(statusCode);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket ws, Throwable error) {
                        closed.complete(-1);
                    }
                }).join();
    }

    public WsClient(String url) {
        this(url, n -> { });
    }

    /** Sends a request and returns its answer (notifications received meanwhile stay queued). */
    JsonNode call(String method, ObjectNode params) throws InterruptedException {
        int id = ++nextId;
        ObjectNode request = SubscriptionServer.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id)
                .put("method", method);
        request.set("params", params);
        return callRaw(request.toString(), id);
    }

    JsonNode callRaw(String text, int id) throws InterruptedException {
        socket.sendText(text, true).join();
        List<JsonNode> skipped = new ArrayList<>();
        try {
            while (true) {
                JsonNode m = received.poll(20, TimeUnit.SECONDS);
                if (m == null) {
                    throw new AssertionError("no answer to " + text);
                }
                if (!m.has("method") && (m.path("id").asInt(-1) == id || m.path("id").isNull())) {
                    return m;
                }
                skipped.add(m);
            }
        } finally {
            List<JsonNode> rest = new ArrayList<>();
            received.drainTo(rest);
            received.addAll(skipped);
            received.addAll(rest);
        }
    }

    public JsonNode subscribe(ObjectNode params) throws InterruptedException {
        JsonNode answer = call("subscribe", params);
        if (!answer.has("result")) {
            throw new AssertionError("subscribe " + params + " failed: " + answer);
        }
        return answer;
    }

    /** The next notification, or null after {@code seconds}. */
    public JsonNode next(double seconds) throws InterruptedException {
        return received.poll((long) (seconds * 1000), TimeUnit.MILLISECONDS);
    }

    /** Notifications until none arrives for {@code quietSeconds}. */
    List<JsonNode> drain(double quietSeconds) throws InterruptedException {
        List<JsonNode> out = new ArrayList<>();
        JsonNode n;
        while ((n = next(quietSeconds)) != null) {
            out.add(n);
        }
        return out;
    }

    CompletableFuture<Integer> closed() {
        return closed;
    }

    public static ObjectNode params(String event) {
        return SubscriptionServer.JSON.createObjectNode().put("event", event);
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        }
        socket.abort();
    }
}
