package io.stacksexplorer.http;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.write.ChainWriter;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real server on a random port over a fresh database, with a plain HTTP client. Every
 * response is validated against spec/openapi.yaml by swagger-request-validator; a response the
 * spec does not allow fails the test that received it.
 */
public final class ApiServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OpenApiInteractionValidator VALIDATOR = OpenApiInteractionValidator
            .createForSpecificationUrl(Objects.requireNonNull(ApiServer.class.getClassLoader().getResource("openapi.yaml"),
                    "openapi.yaml from the spec module on the test classpath").toString())
            // Merge allOf parts before validating: the validator rejects properties a schema does not
            // declare, and each allOf part alone declares only some of a transaction's properties.
            .withResolveCombinators(true)
            .build();

    /** One answer: status, content type and parsed body. */
    public record Answer(int status, String contentType, JsonNode body, String rawBody,
                         java.net.http.HttpHeaders headers) {
    }

    private final EmbeddedServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    private ApiServer(EmbeddedServer server) {
        this.server = server;
    }

    public static ApiServer start(TestDatabase database) {
        return start(database.freshProperties());
    }

    public static ApiServer start(Map<String, Object> properties) {
        return new ApiServer(ApplicationContext.run(EmbeddedServer.class, properties));
    }

    public ChainWriter writer() {
        return server.getApplicationContext().getBean(ChainWriter.class);
    }

    public ApplicationContext context() {
        return server.getApplicationContext();
    }

    public int port() {
        return server.getPort();
    }

    /** Sends a request over a plain socket (see {@link RawHttp}); the answer is not checked against the spec. */
    public RawHttp.Response raw(String method, String pathAndQuery, Map<String, String> headers) {
        return RawHttp.send(port(), method, pathAndQuery, headers);
    }

    /** GETs {@code pathAndQuery} and checks the answer against the spec. */
    public Answer get(String pathAndQuery) {
        return get(pathAndQuery, Map.of());
    }

    /** GETs with request headers (e.g. If-None-Match) and checks the answer against the spec. */
    public Answer get(String pathAndQuery, Map<String, String> requestHeaders) {
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server.getURL() + pathAndQuery)).GET();
            requestHeaders.forEach(builder::header);
            HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            String contentType = response.headers().firstValue("content-type").orElse("");
            String path = pathAndQuery.contains("?") ? pathAndQuery.substring(0, pathAndQuery.indexOf('?')) : pathAndQuery;
            SimpleResponse.Builder answer = SimpleResponse.Builder.status(response.statusCode());
            if (!contentType.isEmpty()) {
                answer.withContentType(contentType).withBody(response.body());
            }
            response.headers().map().forEach((name, values) -> answer.withHeader(name, values));
            ValidationReport report = VALIDATOR.validateResponse(path, Request.Method.GET, answer.build());
            if (report.hasErrors()) {
                fail("GET " + pathAndQuery + " answered " + response.statusCode() + " outside the spec: "
                        + report.getMessages() + "\nbody: " + abbreviate(response.body()));
            }
            JsonNode body = response.body().isEmpty() ? null : JSON.readTree(response.body());
            return new Answer(response.statusCode(), contentType, body, response.body(), response.headers());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + pathAndQuery + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 2000 ? s.substring(0, 2000) + "…" : s;
    }

    /** Closes the server; a PostgreSQL test schema is dropped so test runs leave the database as found. */
    @Override
    public void close() {
        TestDatabase.dropSchemaOf(server.getApplicationContext());
        server.getApplicationContext().close();
    }
}
