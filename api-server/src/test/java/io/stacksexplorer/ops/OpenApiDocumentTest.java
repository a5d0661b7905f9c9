package io.stacksexplorer.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The running server serves the OpenAPI document it was built from, as YAML and JSON, and a docs page with its assets. */
class OpenApiDocumentTest {

    private static ApiServer server;
    private static String base;

    @BeforeAll
    static void start() {
        server = ApiServer.start(TestDatabase.H2);
        base = server.context().getBean(EmbeddedServer.class).getURL() + "";
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** spec/openapi.yaml as the spec module ships it (the file the build generated the server from). */
    static byte[] specFile() throws Exception {
        try (InputStream in = Objects.requireNonNull(OpenApiDocumentTest.class.getClassLoader().getResourceAsStream("openapi.yaml"))) {
            return in.readAllBytes();
        }
    }

    @Test
    void yamlIsTheSpecFileByteForByte() throws Exception {
        Http.Answer yaml = Http.get(base + "/extended/openapi.yaml");
        assertEquals(200, yaml.status());
        assertTrue(yaml.contentType().startsWith("application/yaml"), yaml.contentType());
        assertArrayEquals(specFile(), yaml.bytes());
    }

    @Test
    void jsonIsTheSameDocument() throws Exception {
        Http.Answer json = Http.get(base + "/extended/openapi.json");
        assertEquals(200, json.status());
        assertTrue(json.contentType().startsWith("application/json"), json.contentType());
        JsonNode expected = new ObjectMapper(new YAMLFactory()).readTree(specFile());
        assertEquals(expected, new ObjectMapper().readTree(json.bytes()));
    }

    @Test
    void docsPageAndItsBundledAssets() {
        Http.Answer page = Http.get(base + "/extended/docs");
        assertEquals(200, page.status());
        assertTrue(page.contentType().startsWith("text/html"), page.contentType());
        assertTrue(page.body().contains("docs/swagger-ui-bundle.js") && page.body().contains("openapi.json"), page.body());
        assertTrue(!page.body().contains("http://") && !page.body().contains("https://"), "no outside URL: " + page.body());
        Http.Answer js = Http.get(base + "/extended/docs/swagger-ui-bundle.js");
        assertEquals(200, js.status());
        assertTrue(js.bytes().length > 100_000, "the Swagger UI bundle");
        assertEquals(200, Http.get(base + "/extended/docs/swagger-ui.css").status());
        assertEquals(404, Http.get(base + "/extended/docs/index.html").status(), "only the files the page loads");
    }
}
