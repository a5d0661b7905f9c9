package io.stacksexplorer.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * spec/asyncapi.yaml, the contract of the WebSocket channel: an AsyncAPI 2.6 document whose every
 * reference resolves, whose notification payloads are schemas of openapi.yaml (referenced, never
 * copied), and whose channel offers each message it defines. No AsyncAPI tool runs in a Java
 * build; the server's tests check real messages against the schemas named here
 * (api-server NotificationSchemas).
 */
class AsyncApiDocumentTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static JsonNode asyncApi;
    private static JsonNode openApi;

    @BeforeAll
    static void read() throws IOException {
        Path spec = ProjectLayout.spec();
        asyncApi = YAML.readTree(spec.resolveSibling("asyncapi.yaml").toFile());
        openApi = YAML.readTree(spec.toFile());
    }

    @Test
    void isAnAsyncApi26DocumentWithTheWebSocketChannel() {
        assertEquals("2.6.0", asyncApi.path("asyncapi").asText());
        assertTrue(asyncApi.path("info").path("description").asText().length() > 100, "info.description");
        JsonNode channel = asyncApi.path("channels").path("/extended/v1/ws");
        assertTrue(channel.has("publish") && channel.has("subscribe"), "the channel has both directions");
        assertEquals("ws", asyncApi.at("/servers/local/protocol").asText());
    }

    @Test
    void everyReferenceResolves() {
        List<String> broken = new ArrayList<>();
        refs(asyncApi, "", broken);
        assertTrue(broken.isEmpty(), "unresolved references: " + broken);
    }

    @Test
    void notificationPayloadsAreTheOpenApiSchemasNotCopies() {
        JsonNode messages = asyncApi.at("/components/messages");
        Map<String, String> expected = Map.of(
                "block", "./openapi.yaml#/components/schemas/Block",
                "mempool", "./openapi.yaml#/components/schemas/Transaction",
                "microblock", "./openapi.yaml#/components/schemas/Microblock",
                "tx_update", "./openapi.yaml#/components/schemas/Transaction",
                "address_tx_update", "./openapi.yaml#/components/schemas/AddressTransactionUpdate");
        Set<String> found = new TreeSet<>();
        for (Iterator<JsonNode> it = messages.elements(); it.hasNext(); ) {
            JsonNode message = it.next();
            JsonNode method = message.at("/payload/properties/method/enum/0");
            if (!method.isMissingNode()) {
                String name = method.asText();
                found.add(name);
                assertEquals(expected.get(name), message.at("/payload/properties/params/$ref").asText(), name);
                assertEquals(name, message.path("name").asText());
            }
        }
        assertEquals(new TreeSet<>(expected.keySet()), found);
    }

    @Test
    void theChannelOffersEveryMessage() {
        Set<String> offered = new TreeSet<>();
        for (String direction : List.of("publish", "subscribe")) {
            asyncApi.at("/channels/~1extended~1v1~1ws/" + direction + "/message/oneOf")
                    .forEach(m -> offered.add(m.path("$ref").asText().replace("#/components/messages/", "")));
        }
        Set<String> defined = new TreeSet<>();
        asyncApi.at("/components/messages").fieldNames().forEachRemaining(defined::add);
        assertEquals(defined, offered);
    }

    private static void refs(JsonNode node, String at, List<String> broken) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && !resolves(ref.asText())) {
                broken.add(at + " → " + ref.asText());
            }
            node.fields().forEachRemaining(f -> refs(f.getValue(), at + "/" + f.getKey(), broken));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                refs(node.get(i), at + "/" + i, broken);
            }
        }
    }

    private static boolean resolves(String ref) {
        int hash = ref.indexOf('#');
        String file = ref.substring(0, hash);
        JsonNode doc = file.isEmpty() ? asyncApi : file.equals("./openapi.yaml") ? openApi : null;
        return doc != null && !doc.at(ref.substring(hash + 1)).isMissingNode();
    }
}
