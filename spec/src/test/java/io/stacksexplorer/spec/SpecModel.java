package io.stacksexplorer.spec;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The contract parsed by swagger-parser (external {@code $ref}s resolved by the parser, internal ones kept), with
 * {@code $ref} following and {@code allOf} flattening done here so that every schema reads as one object.
 */
final class SpecModel {
    private static final String SCHEMA_REF = "#/components/schemas/";

    final OpenAPI api;
    final List<String> parseMessages;

    private SpecModel(OpenAPI api, List<String> messages) {
        this.api = api;
        this.parseMessages = messages;
    }

    static SpecModel load(Path spec) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readLocation(spec.toUri().toString(), null, options);
        if (result.getOpenAPI() == null) {
            throw new IllegalStateException("cannot parse " + spec + ": " + result.getMessages());
        }
        return new SpecModel(result.getOpenAPI(),
            result.getMessages() == null ? List.of() : List.copyOf(result.getMessages()));
    }

    /** operationId → operation, in document order (all operations are GETs here, but any method is taken). */
    Map<String, Operation> operations() {
        Map<String, Operation> ops = new LinkedHashMap<>();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, op) ->
            ops.put(op.getOperationId() != null ? op.getOperationId() : method + " " + path, op)));
        return ops;
    }

    /** The component schema a {@code $ref} names, or the schema itself. Follows chains. */
    Schema<?> deref(Schema<?> s) {
        Schema<?> cur = s;
        for (int guard = 0; cur != null && cur.get$ref() != null; guard++) {
            if (guard > 50) {
                throw new IllegalStateException("$ref loop at " + s.get$ref());
            }
            cur = component(cur.get$ref());
        }
        return cur;
    }

    Schema<?> component(String ref) {
        if (!ref.startsWith(SCHEMA_REF)) {
            throw new IllegalStateException("unsupported $ref " + ref);
        }
        Schema<?> target = api.getComponents().getSchemas().get(ref.substring(SCHEMA_REF.length()));
        if (target == null) {
            throw new IllegalStateException("dangling $ref " + ref);
        }
        return target;
    }

    static String refName(Schema<?> s) {
        return s != null && s.get$ref() != null ? s.get$ref().substring(s.get$ref().lastIndexOf('/') + 1) : null;
    }

    Parameter deref(Parameter p) {
        if (p.get$ref() == null) {
            return p;
        }
        String name = p.get$ref().substring(p.get$ref().lastIndexOf('/') + 1);
        return api.getComponents().getParameters().get(name);
    }

    ApiResponse deref(ApiResponse r) {
        if (r.get$ref() == null) {
            return r;
        }
        String name = r.get$ref().substring(r.get$ref().lastIndexOf('/') + 1);
        return api.getComponents().getResponses().get(name);
    }

    /** A schema with {@code $ref}s followed and {@code allOf} parts merged (properties, required, type, ...). */
    static final class Flat {
        String type;
        String description;
        Object example;
        boolean exampleSet;
        Schema<?> items;
        Object additionalProperties;
        List<?> enumValues;
        final Map<String, Schema<?>> properties = new LinkedHashMap<>();
        final Set<String> required = new LinkedHashSet<>();
        final List<String> names = new ArrayList<>();

        boolean isObject() {
            return "object".equals(type) || (type == null && !properties.isEmpty());
        }

        String name() {
            return names.isEmpty() ? "(inline)" : String.join("→", names);
        }
    }

    Flat flatten(Schema<?> schema) {
        Flat f = new Flat();
        visit(schema, f, 0);
        return f;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private void visit(Schema<?> s, Flat f, int depth) {
        if (s == null) {
            return;
        }
        if (depth > 30) {
            throw new IllegalStateException("allOf/$ref nesting too deep at " + f.name());
        }
        if (s.get$ref() != null) {
            f.names.add(refName(s));
            visit(deref(s), f, depth + 1);
            return;
        }
        if (f.type == null && s.getType() != null) {
            f.type = s.getType();
        }
        if (f.description == null && s.getDescription() != null) {
            f.description = s.getDescription();
        }
        if (!f.exampleSet && (s.getExample() != null || s.getExampleSetFlag())) {
            f.example = s.getExample();
            f.exampleSet = true;
        }
        if (f.items == null && s.getItems() != null) {
            f.items = s.getItems();
        }
        if (f.additionalProperties == null && s.getAdditionalProperties() != null) {
            f.additionalProperties = s.getAdditionalProperties();
        }
        if (f.enumValues == null && s.getEnum() != null) {
            f.enumValues = s.getEnum();
        }
        if (s.getProperties() != null) {
            ((Map<String, Schema<?>>) (Map) s.getProperties()).forEach(f.properties::putIfAbsent);
        }
        if (s.getRequired() != null) {
            f.required.addAll(s.getRequired());
        }
        if (s.getAllOf() != null) {
            for (Schema part : s.getAllOf()) {
                visit(part, f, depth + 1);
            }
        }
    }

    /** The {@code application/json} schema of an operation's 200 response. */
    Schema<?> okSchema(String operationId) {
        Operation op = operations().get(operationId);
        if (op == null) {
            throw new AssertionError("no operation " + operationId);
        }
        ApiResponse ok = op.getResponses() == null ? null : op.getResponses().get("200");
        if (ok == null) {
            throw new AssertionError(operationId + " has no 200 response");
        }
        ok = deref(ok);
        MediaType mt = ok.getContent() == null ? null : ok.getContent().get("application/json");
        if (mt == null || mt.getSchema() == null) {
            throw new AssertionError(operationId + " 200 has no application/json schema");
        }
        return mt.getSchema();
    }

    /**
     * Walks from an operation's 200 schema along steps: a property name, {@code []} (array items) or {@code {}}
     * (map values, additionalProperties). Throws AssertionError naming the step that is missing.
     */
    Flat locate(String operationId, List<String> steps) {
        Flat cur = flatten(okSchema(operationId));
        StringBuilder where = new StringBuilder(operationId);
        for (String step : steps) {
            Schema<?> next;
            if (step.equals("[]")) {
                next = cur.items;
                if (!"array".equals(cur.type) || next == null) {
                    throw new AssertionError(where + " (" + cur.name() + ") is not an array with items");
                }
            } else if (step.equals("{}")) {
                next = cur.additionalProperties instanceof Schema<?> s ? s : null;
                if (next == null) {
                    throw new AssertionError(where + " (" + cur.name() + ") has no additionalProperties schema");
                }
            } else {
                next = cur.properties.get(step);
                if (next == null) {
                    throw new AssertionError(where + " (" + cur.name() + ") has no property '" + step + "'");
                }
            }
            where.append(step.startsWith("[") || step.startsWith("{") ? step : "." + step);
            cur = flatten(next);
        }
        return cur;
    }
}
