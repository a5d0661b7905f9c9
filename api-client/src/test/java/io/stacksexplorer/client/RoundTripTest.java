package io.stacksexplorer.client;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every response example we know of must survive a trip through the generated client's models unchanged:
 * deserialize with the client's own ObjectMapper ({@link ApiClient#createDefaultObjectMapper()}, the one the
 * generated {@code *Api} classes use), serialize back with it, and compare the JSON trees exactly (no property lost
 * or added, numbers and nulls as they were).
 *
 * <p>Examples: the JSON files of {@code ../shared/data/reference-examples/} (skipped when absent), the response
 * {@code examples}/{@code example} of every operation in {@code spec/openapi.yaml}, and the schema-level
 * {@code example} of every component schema.
 */
class RoundTripTest {

    private static final String MODEL_PACKAGE = "io.stacksexplorer.client.model.";

    /** Reference example file (name up to ".example.json") → the model of the response it shows. */
    private static final Map<String, String> REFERENCE_MODELS = Map.of(
        "get-mempool-transactions", "MempoolTransactionPage",
        "get-smart-contracts-status", "map:ContractStatusLookupEntry",
        "get-status", "ApiStatus",
        "get-v2-address-transactions", "AddressTransactionPage",
        "nakamoto-block", "Block",
        "transaction-event-smart-contract-log", "ContractEventPage",
        "transactions-list-detail", "map:TransactionLookupEntry");

    /** The client's mapper: what the generated API classes deserialize responses with. */
    private static final ObjectMapper CLIENT = ApiClient.createDefaultObjectMapper();

    /** Reads JSON text into trees exactly: decimals kept as written, so 1, 1.0 and 1.00 differ. */
    private static final ObjectMapper EXACT = JsonMapper.builder()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
        .build();

    private static final YAMLMapper YAML = new YAMLMapper();

    /** One example to round-trip. {@code model} is a schema name or {@code map:Name} / {@code list:Name}. */
    record Case(String name, String model, String json) { }

    // ------------------------------------------------------------------ locations

    private static Path projectRoot() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("spec")) && Files.isDirectory(d.resolve("api-server"))) {
                return d;
            }
        }
        throw new IllegalStateException("no folder containing spec/ and api-server/ above " + dir);
    }

    private static Optional<Path> referenceExamples() {
        Path root = projectRoot();
        Path dir = root.getParent() == null ? null
            : root.getParent().resolve("shared").resolve("data").resolve("reference-examples");
        return dir != null && Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
    }

    // ------------------------------------------------------------------ tests

    @TestFactory
    Stream<DynamicTest> referenceExamplesRoundTrip() throws IOException {
        Optional<Path> dir = referenceExamples();
        Assumptions.assumeTrue(dir.isPresent(), "../shared/data/reference-examples absent: skipped");
        List<Case> cases = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.get())) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList()) {
                String file = f.getFileName().toString();
                String stem = file.replaceFirst("(\\.example)?\\.json$", "");
                cases.add(new Case("reference-examples/" + file, REFERENCE_MODELS.get(stem),
                    Files.readString(f, StandardCharsets.UTF_8)));
            }
        }
        assertTrue(!cases.isEmpty(), "no JSON files in " + dir.get());
        return cases.stream().map(RoundTripTest::test);
    }

    @TestFactory
    Stream<DynamicTest> specResponseExamplesRoundTrip() throws IOException {
        JsonNode spec = YAML.readTree(projectRoot().resolve("spec").resolve("openapi.yaml").toFile());
        List<Case> cases = new ArrayList<>();
        Set<String> seenSharedResponses = new LinkedHashSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = spec.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                JsonNode responses = op.getValue().path("responses");
                String opName = op.getValue().path("operationId").asText(op.getKey() + " " + path.getKey());
                for (Iterator<Map.Entry<String, JsonNode>> rs = responses.fields(); rs.hasNext(); ) {
                    Map.Entry<String, JsonNode> r = rs.next();
                    JsonNode response = r.getValue();
                    String where = opName + " " + r.getKey();
                    if (response.has("$ref")) {
                        String ref = response.get("$ref").asText();
                        if (!seenSharedResponses.add(ref)) {
                            continue;   // a shared response: its examples are tested once
                        }
                        where = ref;
                        response = resolve(spec, ref);
                    }
                    collectMediaTypeExamples(spec, where, response.path("content"), cases);
                }
            }
        }
        assertTrue(!cases.isEmpty(), "no response examples found in spec/openapi.yaml");
        return cases.stream().map(RoundTripTest::test);
    }

    @TestFactory
    Stream<DynamicTest> specSchemaExamplesRoundTrip() {
        JsonNode spec;
        try {
            spec = YAML.readTree(projectRoot().resolve("spec").resolve("openapi.yaml").toFile());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        List<Case> cases = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = spec.path("components").path("schemas").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> s = it.next();
            if (s.getValue().has("example")) {
                cases.add(new Case("#/components/schemas/" + s.getKey() + " example", s.getKey(),
                    json(s.getValue().get("example"))));
            }
        }
        assertTrue(!cases.isEmpty(), "no schema-level examples found in spec/openapi.yaml");
        return cases.stream().map(RoundTripTest::test);
    }

    private static void collectMediaTypeExamples(JsonNode spec, String where, JsonNode content, List<Case> out) {
        for (Iterator<Map.Entry<String, JsonNode>> cs = content.fields(); cs.hasNext(); ) {
            Map.Entry<String, JsonNode> c = cs.next();
            if (!c.getKey().contains("json")) {
                // Not a JSON body (the event stream's text/event-stream): no model to round-trip.
                continue;
            }
            String model = modelOf(c.getValue().path("schema"));
            JsonNode mt = c.getValue();
            if (mt.has("example")) {
                out.add(new Case(where + " " + c.getKey() + " example", model, json(mt.get("example"))));
            }
            for (Iterator<Map.Entry<String, JsonNode>> ex = mt.path("examples").fields(); ex.hasNext(); ) {
                Map.Entry<String, JsonNode> e = ex.next();
                JsonNode example = e.getValue().has("$ref")
                    ? resolve(spec, e.getValue().get("$ref").asText()) : e.getValue();
                if (example.has("value")) {
                    out.add(new Case(where + " " + c.getKey() + " examples." + e.getKey(), model,
                        json(example.get("value"))));
                }
            }
        }
    }

    /** The model a response schema names: {@code $ref}, or a map / list of a {@code $ref}. */
    private static String modelOf(JsonNode schema) {
        if (schema.has("$ref")) {
            return refName(schema.get("$ref").asText());
        }
        if (schema.path("additionalProperties").has("$ref")) {
            return "map:" + refName(schema.get("additionalProperties").get("$ref").asText());
        }
        if ("array".equals(schema.path("type").asText()) && schema.path("items").has("$ref")) {
            return "list:" + refName(schema.get("items").get("$ref").asText());
        }
        return null;
    }

    private static String refName(String ref) {
        return ref.substring(ref.lastIndexOf('/') + 1);
    }

    private static JsonNode resolve(JsonNode spec, String ref) {
        if (!ref.startsWith("#/")) {
            throw new IllegalStateException("external $ref not supported here: " + ref);
        }
        JsonNode target = spec.at(ref.substring(1));
        if (target.isMissingNode()) {
            throw new IllegalStateException("dangling $ref " + ref);
        }
        return target;
    }

    private static String json(JsonNode node) {
        try {
            return EXACT.writeValueAsString(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ the round trip

    private static DynamicTest test(Case c) {
        return DynamicTest.dynamicTest(c.name() + " → " + c.model(), () -> roundTrip(c));
    }

    private static JavaType javaType(String model) throws ClassNotFoundException {
        var types = CLIENT.getTypeFactory();
        if (model.startsWith("map:")) {
            return types.constructMapType(LinkedHashMap.class, String.class,
                Class.forName(MODEL_PACKAGE + model.substring(4)));
        }
        if (model.startsWith("list:")) {
            return types.constructCollectionType(List.class, Class.forName(MODEL_PACKAGE + model.substring(5)));
        }
        return types.constructType(Class.forName(MODEL_PACKAGE + model));
    }

    private static void roundTrip(Case c) throws Exception {
        if (c.model() == null) {
            fail(c.name() + ": no model is known for this example (add it to the mapping in RoundTripTest)");
        }
        JavaType type;
        try {
            type = javaType(c.model());
        } catch (ClassNotFoundException e) {
            fail(c.name() + ": the generated client has no model class " + e.getMessage());
            return;
        }
        JsonNode input = EXACT.readTree(c.json());
        Object value;
        try {
            value = CLIENT.readValue(c.json(), type);
        } catch (IOException e) {
            fail(c.name() + ": cannot deserialize into " + type + ": " + e.getMessage());
            return;
        }
        String written = CLIENT.writeValueAsString(value);
        JsonNode output = EXACT.readTree(written);
        List<String> diffs = new ArrayList<>();
        diff("", input, output, diffs);
        if (c.name().startsWith("reference-examples/")) {
            // The peer's examples predate some properties our contract requires but allows to be null
            // (pox_v*_unlock_height, clarity_version, vm_error): a model of the contract writes those as null.
            // That is the only tolerance; nothing may be lost or changed, nothing else added.
            Set<String> requiredNullable = requiredNullableProperties();
            diffs.removeIf(d -> d.startsWith("added ") && d.contains(" = null ")
                    && requiredNullable.contains(d.substring(d.lastIndexOf('/', d.indexOf(" = ")) + 1, d.indexOf(" = "))));
        }
        if (!diffs.isEmpty()) {
            fail(c.name() + " → " + type.getTypeName() + " does not round-trip (" + diffs.size() + " difference"
                + (diffs.size() == 1 ? "" : "s") + "):\n  " + String.join("\n  ", diffs));
        }
    }

    /**
     * Names of properties that the component schemas require (directly or in an {@code allOf} part, as
     * {@code ConfirmedTransaction} requires {@code vm_error} of {@code ConfirmedTransactionFields}) and
     * allow to be null.
     */
    private static Set<String> requiredNullableProperties() throws IOException {
        JsonNode spec = YAML.readTree(projectRoot().resolve("spec").resolve("openapi.yaml").toFile());
        Set<String> required = new LinkedHashSet<>();
        Set<String> nullable = new LinkedHashSet<>();
        for (JsonNode schema : spec.path("components").path("schemas")) {
            List<JsonNode> parts = new ArrayList<>(List.of(schema));
            schema.path("allOf").forEach(parts::add);
            for (JsonNode part : parts) {
                part.path("required").forEach(r -> required.add(r.asText()));
                part.path("properties").fields().forEachRemaining(p -> {
                    if (p.getValue().path("nullable").asBoolean(false)) {
                        nullable.add(p.getKey());
                    }
                });
            }
        }
        nullable.retainAll(required);
        return nullable;
    }

    /** Differences between two trees, as JSON pointers: lost (in input only), added (in output only), changed. */
    static void diff(String at, JsonNode in, JsonNode out, List<String> diffs) {
        if (in.isObject() && out.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = in.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = at + "/" + e.getKey().replace("~", "~0").replace("/", "~1");
                if (!out.has(e.getKey())) {
                    diffs.add("lost " + p + " = " + e.getValue());
                } else {
                    diff(p, e.getValue(), out.get(e.getKey()), diffs);
                }
            }
            for (Iterator<String> it = out.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!in.has(k)) {
                    JsonNode v = out.get(k);
                    String hint = v.isNull() ? "  (absent in the input; the model writes it as null: required or nullable in the spec)"
                        : v.isArray() && v.isEmpty() ? "  (absent in the input; the model initialises the list to [])" : "";
                    diffs.add("added " + at + "/" + k.replace("~", "~0").replace("/", "~1") + " = " + v + hint);
                }
            }
        } else if (in.isArray() && out.isArray()) {
            int n = Math.max(in.size(), out.size());
            for (int i = 0; i < n; i++) {
                if (i >= out.size()) {
                    diffs.add("lost " + at + "/" + i + " = " + in.get(i));
                } else if (i >= in.size()) {
                    diffs.add("added " + at + "/" + i + " = " + out.get(i));
                } else {
                    diff(at + "/" + i, in.get(i), out.get(i), diffs);
                }
            }
        } else if (!in.equals(out)) {
            diffs.add("changed " + (at.isEmpty() ? "/" : at) + ": " + describe(in) + " → " + describe(out));
        }
    }

    private static String describe(JsonNode n) {
        return n + " (" + n.getNodeType().name().toLowerCase() + (n.isNumber() ? " " + n.numberType() : "") + ")";
    }
}
