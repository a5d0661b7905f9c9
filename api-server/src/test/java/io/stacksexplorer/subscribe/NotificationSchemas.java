package io.stacksexplorer.subscribe;

import com.atlassian.oai.validator.report.MessageResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.schema.SchemaValidator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Checks a notification against the contract: its method is one asyncapi.yaml defines, its
 * envelope has the JSON-RPC version and a position of the documented pattern, and its params
 * validate against the openapi.yaml schema that asyncapi.yaml names for that method.
 */
final class NotificationSchemas {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final OpenAPI OPEN_API;
    private static final SchemaValidator VALIDATOR;
    /** Method → the openapi.yaml component its params are. */
    private static final Map<String, String> PARAMS = new HashMap<>();
    private static final Pattern POSITION;

    static {
        ClassLoader loader = NotificationSchemas.class.getClassLoader();
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        // allOf parts merged, as ApiServer's validator does: each part alone declares only some properties.
        options.setResolveFully(true);
        options.setResolveCombinators(true);
        OPEN_API = new OpenAPIV3Parser().read(Objects.requireNonNull(loader.getResource("openapi.yaml")).toString(),
                null, options);
        VALIDATOR = new SchemaValidator(OPEN_API, new MessageResolver());
        try {
            JsonNode async = YAML.readTree(Objects.requireNonNull(loader.getResource("asyncapi.yaml"),
                    "asyncapi.yaml from the spec module"));
            for (Iterator<JsonNode> it = async.at("/components/messages").elements(); it.hasNext(); ) {
                JsonNode payload = it.next().path("payload");
                JsonNode method = payload.at("/properties/method/enum/0");
                String ref = payload.at("/properties/params/$ref").asText();
                if (!method.isMissingNode()) {
                    PARAMS.put(method.asText(), ref.substring(ref.lastIndexOf('/') + 1));
                }
            }
            POSITION = Pattern.compile(async.at("/components/schemas/Position/pattern").asText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private NotificationSchemas() {
    }

    /** An AssertionError naming what is wrong with {@code notification}. */
    static void check(JsonNode notification) {
        String method = notification.path("method").asText();
        String component = PARAMS.get(method);
        if (component == null) {
            throw new AssertionError("method '" + method + "' is not in asyncapi.yaml: " + notification);
        }
        if (!"2.0".equals(notification.path("jsonrpc").asText()) || notification.has("id")) {
            throw new AssertionError("not a JSON-RPC 2.0 notification: " + notification);
        }
        if (!POSITION.matcher(notification.path("position").asText()).matches()) {
            throw new AssertionError("position missing or malformed: " + notification);
        }
        checkParams(method, notification.get("params"));
    }

    /** Params (or an event stream's data) of {@code method} against its openapi.yaml schema. */
    static void checkParams(String method, JsonNode params) {
        String component = PARAMS.get(method);
        Schema<?> schema = OPEN_API.getComponents().getSchemas().get(component);
        ValidationReport report = VALIDATOR.validate(() -> params, schema, "notification." + method);
        if (report.hasErrors()) {
            throw new AssertionError(method + " params do not match " + component + ": " + report.getMessages()
                    + "\n" + params);
        }
    }
}
