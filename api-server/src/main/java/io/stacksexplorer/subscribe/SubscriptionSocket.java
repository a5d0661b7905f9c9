package io.stacksexplorer.subscribe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.Scheduled;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnClose;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Named;

import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * The peer's subscription protocol at {@code /extended/v1/ws}: JSON-RPC 2.0 requests
 * {@code subscribe} / {@code unsubscribe} with {@code params} {@code {event, tx_id?, address?}},
 * answered with the params; notifications are JSON-RPC requests without id whose {@code method} is
 * the event and whose {@code params} the payload (see spec/asyncapi.yaml). Beyond the peer: every
 * notification carries {@code position}, and {@code subscribe} takes {@code after} (a position) to
 * resume. Errors are JSON-RPC error objects, never a closed socket.
 */
@ServerWebSocket("/extended/v1/ws")
class SubscriptionSocket {

    /** JSON-RPC 2.0 error codes. */
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    /** Server-defined: the per-connection subscription limit is reached. */
    static final int TOO_MANY_SUBSCRIPTIONS = -32001;
    /** Server-defined: {@code after} is older than the change log keeps (retention); re-sync, then subscribe live. */
    static final int POSITION_PRUNED = -32002;

    /** Close codes: 1008 (policy violation) for a client too slow to follow, 1013 when the server is full. */
    static final CloseReason TOO_SLOW = new CloseReason(1008, "too slow: resume from the last position");
    static final CloseReason FULL = new CloseReason(1013, "too many connections");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final byte[] PING = new byte[]{'k'};

    private final ChangeFeed feed;
    private final SubscriptionSettings settings;
    private final ExecutorService blocking;
    private final Map<String, Socket> open = new ConcurrentHashMap<>();

    SubscriptionSocket(ChangeFeed feed, SubscriptionSettings settings,
                       @Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        this.feed = feed;
        this.settings = settings;
        this.blocking = blocking;
    }

    /** One connection's subscriptions, written to its session. */
    private final class Socket extends Subscriber {
        private final WebSocketSession session;

        Socket(WebSocketSession session) {
            super(feed, blocking, settings.getMaxPendingPerConnection());
            this.session = session;
        }

        @Override
        protected CompletionStage<?> write(Notification n) {
            return session.sendAsync("{\"jsonrpc\":\"2.0\",\"method\":\"" + n.method() + "\",\"params\":"
                    + n.paramsJson() + ",\"position\":\"" + n.position() + "\"}");
        }

        @Override
        protected void closeTooSlow() {
            open.remove(session.getId());
            session.close(TOO_SLOW);
        }
    }

    @OnOpen
    void onOpen(WebSocketSession session) {
        if (feed.connections() >= settings.getMaxConnections()) {
            session.close(FULL);
            return;
        }
        Socket socket = new Socket(session);
        open.put(session.getId(), socket);
        feed.add(socket);
    }

    @OnMessage(maxPayloadLength = 65536)
    void onMessage(String message, WebSocketSession session) {
        Socket socket = open.get(session.getId());
        if (socket == null) {
            return;
        }
        JsonNode request;
        try {
            request = JSON.readTree(message);
        } catch (JsonProcessingException e) {
            send(session, error(NODES.nullNode(), PARSE_ERROR, "Parse error: not JSON", null));
            return;
        }
        if (request != null && request.isArray()) {
            if (request.isEmpty()) {
                send(session, error(NODES.nullNode(), INVALID_REQUEST, "Invalid Request: empty batch", null));
                return;
            }
            // A batch: answered as one array, after the calls ran in order.
            ArrayNode answers = NODES.arrayNode();
            for (JsonNode each : request) {
                handle(socket, each, answers::add);
            }
            if (!answers.isEmpty()) {
                send(session, answers);
            }
            return;
        }
        handle(socket, request, answer -> send(session, answer));
    }

    private void handle(Socket socket, JsonNode request, java.util.function.Consumer<JsonNode> answer) {
        if (request == null || !request.isObject() || !"2.0".equals(request.path("jsonrpc").asText(null))
                || !request.path("method").isTextual()) {
            JsonNode id = request != null && request.isObject() ? request.path("id") : NODES.nullNode();
            answer.accept(error(id.isMissingNode() ? NODES.nullNode() : id, INVALID_REQUEST,
                    "Invalid Request: expected a JSON-RPC 2.0 request object", null));
            return;
        }
        JsonNode id = request.get("id");
        boolean notification = id == null;
        String method = request.get("method").asText();
        JsonNode params = request.path("params");
        java.util.function.Consumer<JsonNode> reply = notification ? a -> { } : answer;
        if (!method.equals("subscribe") && !method.equals("unsubscribe")) {
            reply.accept(error(id, METHOD_NOT_FOUND, "Method not found: " + method
                    + "; this server offers subscribe and unsubscribe", null));
            return;
        }
        if (!params.isObject()) {
            reply.accept(error(id, INVALID_PARAMS, "Invalid params: expected an object {event, ...}", "params"));
            return;
        }
        Topic topic;
        Position after = null;
        try {
            topic = Topics.of(text(params, "event"), text(params, "tx_id"), text(params, "address"));
            if (method.equals("subscribe") && params.has("after")) {
                after = Position.parse(params.get("after").asText());
                if (after == null) {
                    throw new Topics.Invalid("after", "after must be a position such as \"1042\" or \"1042:2\"");
                }
            }
        } catch (Topics.Invalid e) {
            reply.accept(error(id, INVALID_PARAMS, "Invalid params: " + e.getMessage(), e.parameter));
            return;
        }
        ObjectNode result = NODES.objectNode().put("event", topic.method());
        if (topic.key() != null) {
            result.put(topic.method().equals("tx_update") ? "tx_id" : "address", topic.key());
        }
        if (method.equals("unsubscribe")) {
            socket.unsubscribe(topic);
            reply.accept(success(id, result));
            return;
        }
        if (socket.size() >= settings.getMaxSubscriptionsPerConnection()) {
            reply.accept(error(id, TOO_MANY_SUBSCRIPTIONS, "at most " + settings.getMaxSubscriptionsPerConnection()
                    + " subscriptions per connection", null));
            return;
        }
        if (after != null) {
            try {
                feed.requireResumable(after);
            } catch (ChangeFeed.Pruned e) {
                ObjectNode error = error(id, POSITION_PRUNED, "Position no longer available: " + e.getMessage()
                        + "; read the current state and subscribe without after", "after");
                ((ObjectNode) error.at("/error/data")).put("oldest_position", Long.toString(e.oldest));
                reply.accept(error);
                return;
            }
        }
        socket.subscribe(topic, after, () -> reply.accept(success(id, result)));
    }

    private static String text(JsonNode params, String field) {
        JsonNode v = params.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static ObjectNode success(JsonNode id, JsonNode result) {
        ObjectNode o = NODES.objectNode().put("jsonrpc", "2.0");
        o.set("id", id);
        o.set("result", result);
        return o;
    }

    private static ObjectNode error(JsonNode id, int code, String message, String parameter) {
        ObjectNode o = NODES.objectNode().put("jsonrpc", "2.0");
        o.set("id", id);
        ObjectNode error = o.putObject("error").put("code", code).put("message", message);
        if (parameter != null) {
            error.putObject("data").put("parameter", parameter);
        }
        return o;
    }

    private static void send(WebSocketSession session, JsonNode answer) {
        session.sendAsync(answer.toString());
    }

    @OnClose
    void onClose(WebSocketSession session) {
        Socket socket = open.remove(session.getId());
        if (socket != null) {
            socket.closed();
        }
    }

    /** Ping keeps idle connections (and the proxies in between) open and finds dead ones. */
    @Scheduled(fixedDelay = "${stacks.subscriptions.keep-alive-interval:15s}")
    void ping() {
        for (Socket socket : open.values()) {
            if (socket.session.isOpen()) {
                socket.session.sendPingAsync(PING);
            }
        }
    }

    @PreDestroy
    void shutdown() {
        for (Socket socket : open.values()) {
            socket.closed();
            socket.session.close(CloseReason.GOING_AWAY);
        }
        open.clear();
    }
}
