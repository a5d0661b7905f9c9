package io.stacksexplorer.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stacksexplorer.spec.SeedDocument.Field;
import io.stacksexplorer.spec.SeedDocument.Kind;
import io.stacksexplorer.spec.SeedDocument.Resource;
import io.stacksexplorer.spec.SeedDocument.SeedType;
import io.stacksexplorer.spec.SpecModel.Flat;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * Checks {@code spec/openapi.yaml} against the seed document and the contract's documentation rules.
 *
 * <p>Seed part (skipped when {@code ../shared/seed/000_9a2f993c8711c45f.txt} is absent): every field of every
 * resource table in the seed's section 2 must be a property, of the seed's JSON type, of the schema that each
 * operation returning that resource actually returns (walked from the 200 responses, with {@code $ref}s followed
 * and {@code allOf} flattened). Field names and types come from the seed file; where each resource appears
 * ({@link #WHERE}) is the contract's structure and is encoded here.
 *
 * <p>Documentation part (always runs): every operation, parameter, component schema and schema property has a
 * non-blank description and an example; every operation has a {@code default} response, a {@code 400} when it
 * takes parameters, and all its error responses are {@code application/problem+json} with the {@code Problem}
 * schema.
 *
 * <p>Checks whose failure is a known gap in the spec, reported to the lead and still to be fixed there, are
 * listed in {@link #KNOWN_SPEC_GAPS}: their display name starts with {@code [KNOWN SPEC GAP]} and they still
 * fail until the spec is fixed (then remove the entry).
 */
class SeedFieldsTest {

    static final String SEED_FILE = "seed/000_9a2f993c8711c45f.txt";

    /** One place a seed resource appears: an operation's 200 schema and the steps from it. */
    record Where(String operationId, List<String> steps) {
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(operationId).append(" 200 ");
            if (steps.isEmpty()) {
                sb.append("body");
            }
            for (int i = 0; i < steps.size(); i++) {
                String s = steps.get(i);
                sb.append(s.startsWith("[") || s.startsWith("{") || i == 0 ? s : "." + s);
            }
            return sb.toString();
        }
    }

    private static Where at(String operationId, String... steps) {
        return new Where(operationId, List.of(steps));
    }

    /** Seed section → every place in the responses where that resource is returned. */
    static final Map<String, List<Where>> WHERE = new LinkedHashMap<>();

    static {
        List<Where> transactions = List.of(
            at("getAddressMempoolTransactions", "results", "[]"),
            at("getTransactionsByIds", "{}", "result"),
            at("getAddressTransactions", "results", "[]", "tx"));
        WHERE.put("2.1", List.of(at("getBlock")));
        WHERE.put("2.2", List.of(
            at("getAddressMempoolTransactions", "results", "[]"),
            at("getTransactionsByIds", "{}", "result")));
        WHERE.put("2.3", List.of(
            at("getAddressTransactions", "results", "[]", "tx"),
            at("getTransactionsByIds", "{}", "result")));
        WHERE.put("2.4", List.of(
            at("getContractEvents", "results", "[]"),
            at("getTransactionsByIds", "{}", "result", "events", "[]"),
            at("getAddressTransactions", "results", "[]", "tx", "events", "[]")));
        WHERE.put("2.5", transactions.stream().map(w -> extend(w, "post_conditions", "[]")).toList());
        WHERE.put("2.6", transactions.stream().map(w -> extend(w, "token_transfer")).toList());
        WHERE.put("2.7", List.of(
            at("getTransactionsByIds", "{}"),
            at("getSmartContractsStatus", "{}")));
        WHERE.put("2.8", List.of(at("getSmartContractsStatus", "{}", "result")));
        WHERE.put("2.9", List.of(at("getAddressTransactions", "results", "[]")));
        WHERE.put("2.10", List.of(
            at("getContractEvents"),
            at("getAddressTransactions"),
            at("getAddressMempoolTransactions")));
        WHERE.put("2.11", List.of(at("getApiStatus"), at("getApiStatusV1")));
    }

    private static Where extend(Where w, String... more) {
        List<String> steps = new ArrayList<>(w.steps());
        steps.addAll(List.of(more));
        return new Where(w.operationId(), List.copyOf(steps));
    }

    /**
     * Checks that fail because of a gap in spec/openapi.yaml, reported to the lead; the spec is to be fixed, not
     * this test. Key: the check's display name (without the marker). They still fail until the spec is fixed.
     */
    static final Map<String, String> KNOWN_SPEC_GAPS = new LinkedHashMap<>();

    // Empty: every gap found so far is fixed in the spec.

    static SpecModel spec;

    @BeforeAll
    static void load() {
        spec = SpecModel.load(ProjectLayout.spec());
    }

    private static DynamicTest check(String name, Executable body) {
        String reason = KNOWN_SPEC_GAPS.get(name);
        return DynamicTest.dynamicTest(reason == null ? name : "[KNOWN SPEC GAP] " + name, () -> {
            try {
                body.execute();
            } catch (AssertionError e) {
                throw reason == null ? e : new AssertionError("[KNOWN SPEC GAP: " + reason + "] " + e.getMessage(), e);
            }
        });
    }

    @Test
    void specParsesWithoutMessages() {
        assertEquals(List.of(), spec.parseMessages, "swagger-parser messages for " + ProjectLayout.spec());
    }

    // ------------------------------------------------------------------ seed fields

    private static SeedDocument seed() throws Exception {
        Optional<Path> file = ProjectLayout.shared(SEED_FILE);
        Assumptions.assumeTrue(file.isPresent(), "seed document ../shared/" + SEED_FILE + " absent: seed checks skipped");
        return SeedDocument.read(file.get());
    }

    @Test
    void everySeedResourceIsMapped() throws Exception {
        SeedDocument seed = seed();
        List<String> withFields = seed.resources().values().stream()
            .filter(r -> !r.fields().isEmpty()).map(Resource::number).toList();
        assertEquals(List.copyOf(WHERE.keySet()), withFields,
            "seed section 2 resources with fields vs. the sections this test knows where to find");
    }

    @TestFactory
    Stream<DynamicNode> seedFieldsAreInEveryResponseThatReturnsThem() throws Exception {
        SeedDocument seed = seed();
        List<DynamicNode> sections = new ArrayList<>();
        for (Map.Entry<String, List<Where>> e : WHERE.entrySet()) {
            Resource r = seed.resources().get(e.getKey());
            if (r == null || r.fields().isEmpty()) {
                continue;   // everySeedResourceIsMapped reports it
            }
            List<DynamicNode> places = new ArrayList<>();
            for (Where where : e.getValue()) {
                List<DynamicNode> fields = new ArrayList<>();
                for (Field f : r.fields()) {
                    String name = r.number() + " @ " + where + " · " + f.path() + ": " + f.type()
                        + (f.seenValues().isEmpty() ? "" : " seen " + f.seenValues());
                    fields.add(check(name, () -> checkField(where, f)));
                }
                places.add(DynamicContainer.dynamicContainer(where.toString(), fields));
            }
            sections.add(DynamicContainer.dynamicContainer(r + " (" + r.fields().size() + " fields)", places));
        }
        return sections.stream();
    }

    private static void checkField(Where where, Field f) {
        Flat cur = spec.locate(where.operationId(), where.steps());
        StringBuilder path = new StringBuilder(where.toString());
        for (String seg : f.path().split("\\.")) {
            Schema<?> p = cur.properties.get(seg);
            if (p == null) {
                fail(path + " (" + cur.name() + ") has no property '" + seg + "'; seed field " + f.path() + " is "
                    + f.type() + "; properties there: " + cur.properties.keySet());
            }
            path.append('.').append(seg);
            cur = spec.flatten(p);
        }
        checkType(path.toString(), cur, f.type());
        for (Map.Entry<String, String> seen : f.seenValues().entrySet()) {
            Flat target = cur;
            String at = path.toString();
            if (!seen.getKey().isEmpty()) {
                Schema<?> sub = cur.properties.get(seen.getKey());
                assertTrue(sub != null, at + " has no property '" + seen.getKey() + "'");
                target = spec.flatten(sub);
                at = at + "." + seen.getKey();
            }
            if (target.enumValues != null) {
                List<String> values = target.enumValues.stream().map(String::valueOf).toList();
                assertTrue(values.contains(seen.getValue()),
                    at + " (" + target.name() + ") enum " + values + " lacks the value the seed saw: " + seen.getValue());
            }
        }
    }

    private static void checkType(String at, Flat s, SeedType t) {
        String actual = s.type == null ? (s.isObject() ? "object (allOf)" : "untyped") : s.type;
        switch (t.kind()) {
            case INTEGER -> assertEquals("integer", s.type, at + " (" + s.name() + "): seed type " + t + ", spec " + actual);
            case STRING -> assertEquals("string", s.type, at + " (" + s.name() + "): seed type " + t + ", spec " + actual);
            case BOOLEAN -> assertEquals("boolean", s.type, at + " (" + s.name() + "): seed type " + t + ", spec " + actual);
            case ARRAY -> {
                assertEquals("array", s.type, at + " (" + s.name() + "): seed type " + t + ", spec " + actual);
                assertTrue(s.items != null, at + ": array without items");
                if (t.element() != null) {
                    SeedType element = SeedDocument.type(t.element());
                    checkType(at + "[]", spec.flatten(s.items), element);
                }
            }
            case OBJECT -> {
                assertTrue(s.isObject(), at + " (" + s.name() + "): seed type " + t + ", spec " + actual);
                for (Map.Entry<String, SeedType> sub : t.subFields().entrySet()) {
                    Schema<?> p = s.properties.get(sub.getKey());
                    assertTrue(p != null, at + " (" + s.name() + ") has no property '" + sub.getKey()
                        + "'; seed type " + t + "; properties there: " + s.properties.keySet());
                    checkType(at + "." + sub.getKey(), spec.flatten(p), sub.getValue());
                }
            }
            default -> fail("unknown kind " + t.kind());
        }
    }

    // ------------------------------------------------------------------ descriptions and examples

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static boolean hasExample(MediaType mt) {
        return mt.getExample() != null || (mt.getExamples() != null && !mt.getExamples().isEmpty())
            || (mt.getSchema() != null && spec.flatten(mt.getSchema()).exampleSet);
    }

    @TestFactory
    Stream<DynamicNode> everyOperationHasDescriptionAndExamples() {
        List<DynamicNode> out = new ArrayList<>();
        spec.operations().forEach((id, op) -> {
            out.add(check("operation " + id + ": description",
                () -> assertTrue(!blank(op.getDescription()), id + " has no description")));
            out.add(check("operation " + id + ": every response has a description and an example", () -> {
                List<String> missing = new ArrayList<>();
                op.getResponses().forEach((code, raw) -> {
                    ApiResponse r = spec.deref(raw);
                    if (blank(r.getDescription())) {
                        missing.add(code + ": no description");
                    }
                    if (r.getContent() != null) {
                        r.getContent().forEach((type, mt) -> {
                            if (!hasExample(mt)) {
                                missing.add(code + " " + type + ": no example (media-type example(s) or schema example)");
                            }
                            if (mt.getSchema() != null && mt.getSchema().get$ref() == null
                                && blank(mt.getSchema().getDescription())) {
                                missing.add(code + " " + type + ": inline schema has no description");
                            }
                        });
                    }
                });
                assertTrue(missing.isEmpty(), id + ": " + missing);
            }));
        });
        return out.stream();
    }

    @TestFactory
    Stream<DynamicNode> everyParameterHasDescriptionAndExample() {
        Map<String, Parameter> params = new LinkedHashMap<>();
        if (spec.api.getComponents().getParameters() != null) {
            spec.api.getComponents().getParameters().forEach((n, p) -> params.put("#/components/parameters/" + n, p));
        }
        spec.operations().forEach((id, op) -> {
            if (op.getParameters() != null) {
                for (Parameter p : op.getParameters()) {
                    if (p.get$ref() == null && !params.containsValue(p)) {   // the parser inlines $ref'd ones
                        params.put(id + " parameter " + p.getName() + " (" + p.getIn() + ")", p);
                    }
                }
            }
        });
        return params.entrySet().stream().map(e -> check("parameter " + e.getKey(), () -> {
            Parameter p = e.getValue();
            assertTrue(!blank(p.getDescription()), e.getKey() + " has no description");
            boolean example = p.getExample() != null || (p.getExamples() != null && !p.getExamples().isEmpty())
                || (p.getSchema() != null && spec.flatten(p.getSchema()).exampleSet);
            assertTrue(example, e.getKey() + " has no example (parameter example(s) or schema example)");
        }));
    }

    /** Component schemas that are the schema of a response media type which carries examples. */
    private static Set<String> schemasWithMediaTypeExamples() {
        Set<String> out = new LinkedHashSet<>();
        spec.operations().values().forEach(op -> op.getResponses().values().forEach(raw -> {
            ApiResponse r = spec.deref(raw);
            if (r.getContent() != null) {
                r.getContent().values().forEach(mt -> {
                    boolean examples = mt.getExample() != null || (mt.getExamples() != null && !mt.getExamples().isEmpty());
                    String name = SpecModel.refName(mt.getSchema());
                    if (examples && name != null) {
                        out.add(name);
                    }
                });
            }
        }));
        return out;
    }

    @TestFactory
    @SuppressWarnings({"rawtypes", "unchecked"})
    Stream<DynamicNode> everySchemaAndPropertyHasDescriptionAndExample() {
        Set<String> coveredByMediaType = schemasWithMediaTypeExamples();
        List<DynamicNode> out = new ArrayList<>();
        spec.api.getComponents().getSchemas().forEach((name, schema) -> {
            List<DynamicNode> tests = new ArrayList<>();
            tests.add(check("schema " + name + ": description",
                () -> assertTrue(!blank(schema.getDescription()), "schema " + name + " has no description")));
            tests.add(check("schema " + name + ": example", () -> assertTrue(
                schema.getExample() != null || schema.getExampleSetFlag() || coveredByMediaType.contains(name),
                "schema " + name + " has no schema-level example (and is not a response schema with media-type examples)")));
            Map<String, Schema<?>> props = new LinkedHashMap<>();
            collectOwnProperties(schema, props);
            props.forEach((prop, ps) -> tests.add(check("schema " + name + " property " + prop + ": description and example",
                () -> checkProperty(name + "." + prop, ps))));
            out.add(DynamicContainer.dynamicContainer("schema " + name, tests));
        });
        return out.stream();
    }

    /** Own properties plus those of inline (non-$ref) allOf parts; $ref parts are components checked on their own. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void collectOwnProperties(Schema<?> s, Map<String, Schema<?>> into) {
        if (s.getProperties() != null) {
            ((Map<String, Schema<?>>) (Map) s.getProperties()).forEach(into::putIfAbsent);
        }
        if (s.getAllOf() != null) {
            for (Schema part : s.getAllOf()) {
                if (part.get$ref() == null) {
                    collectOwnProperties(part, into);
                }
            }
        }
    }

    private static void checkProperty(String at, Schema<?> p) {
        List<String> missing = new ArrayList<>();
        propertyGaps(at, p, missing, 0);
        assertTrue(missing.isEmpty(), String.join("; ", missing));
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void propertyGaps(String at, Schema<?> p, List<String> missing, int depth) {
        Flat f = spec.flatten(p);   // a $ref'd property is described and exemplified by its target
        if (blank(f.description)) {
            missing.add(at + " has no description");
        }
        boolean example = f.exampleSet;
        if (!example && "array".equals(f.type) && f.items != null) {
            example = spec.flatten(f.items).exampleSet;
        }
        if (!example) {
            missing.add(at + " has no example (property example, its $ref target's example, or its items' example)");
        }
        if (p.get$ref() == null && depth < 10) {   // inline nested schemas: check their own properties too
            if (p.getProperties() != null) {
                ((Map<String, Schema<?>>) (Map) p.getProperties())
                    .forEach((n, sub) -> propertyGaps(at + "." + n, sub, missing, depth + 1));
            }
            if (p.getItems() != null && p.getItems().get$ref() == null && p.getItems().getProperties() != null) {
                ((Map<String, Schema<?>>) (Map) p.getItems().getProperties())
                    .forEach((n, sub) -> propertyGaps(at + "[]." + n, sub, missing, depth + 1));
            }
        }
    }

    // ------------------------------------------------------------------ error responses

    @TestFactory
    Stream<DynamicNode> everyOperationHasProblemErrorResponses() {
        List<DynamicNode> out = new ArrayList<>();
        spec.operations().forEach((id, op) -> out.add(check("operation " + id + ": default, 400 and problem+json errors",
            () -> checkErrors(id, op))));
        return out.stream();
    }

    private static void checkErrors(String id, Operation op) {
        List<String> problems = new ArrayList<>();
        Map<String, ApiResponse> responses = op.getResponses();
        if (!responses.containsKey("default")) {
            problems.add("no default response");
        }
        boolean hasParameters = op.getParameters() != null && !op.getParameters().isEmpty();
        if (hasParameters && !responses.containsKey("400")) {
            problems.add("takes parameters but has no 400 response");
        }
        responses.forEach((code, raw) -> {
            boolean error = code.equals("default") || code.startsWith("4") || code.startsWith("5");
            if (!error) {
                return;
            }
            ApiResponse r = spec.deref(raw);
            MediaType mt = r.getContent() == null ? null : r.getContent().get("application/problem+json");
            if (mt == null) {
                problems.add(code + " has no application/problem+json content"
                    + (r.getContent() == null ? "" : " (has " + r.getContent().keySet() + ")"));
            } else if (mt.getSchema() == null || !"#/components/schemas/Problem".equals(mt.getSchema().get$ref())) {
                problems.add(code + " application/problem+json schema is not $ref Problem: "
                    + (mt.getSchema() == null ? "none" : mt.getSchema().get$ref()));
            }
        });
        assertTrue(problems.isEmpty(), id + ": " + problems);
    }
}
