package io.stacksexplorer.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micronaut.context.annotation.Value;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * The OpenAPI document, served by the server that implements it: {@code /extended/openapi.yaml} is the
 * very {@code spec/openapi.yaml} this jar was built from (copied into it by the build, see
 * api-server/pom.xml), {@code /extended/openapi.json} the same document as JSON, and
 * {@code /extended/docs} a reference page rendering it with Swagger UI, whose files come from its
 * webjar inside this jar (no CDN: the page works without internet).
 */
@Controller("/extended")
class OpenApiDocumentController {

    static final String SPEC_RESOURCE = "contract/openapi.yaml";
    static final MediaType YAML = MediaType.of("application/yaml");

    /** The Swagger UI files the page loads; nothing else of the webjar is served. */
    private static final Set<String> ASSETS = Set.of("swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png");

    private final byte[] yaml;
    private final byte[] json;
    private final byte[] page;
    private final String assetRoot;

    OpenApiDocumentController(@Value("${stacks.docs.swagger-ui}") String assetRoot) {
        this.assetRoot = assetRoot;
        this.yaml = resource(SPEC_RESOURCE);
        try {
            this.json = new ObjectMapper().writeValueAsBytes(new ObjectMapper(new YAMLFactory()).readTree(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException("the bundled contract is not valid YAML", e);
        }
        this.page = resource("contract/docs.html");
    }

    /** Paths answered without the database (the schema gate lets them through). */
    static boolean serves(String path) {
        return path.equals("/extended/openapi.yaml") || path.equals("/extended/openapi.json")
                || path.equals("/extended/docs") || path.startsWith("/extended/docs/");
    }

    @Get("/openapi.yaml")
    HttpResponse<byte[]> yaml() {
        return HttpResponse.ok(yaml).contentType(YAML);
    }

    @Get("/openapi.json")
    HttpResponse<byte[]> json() {
        return HttpResponse.ok(json).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    @Get("/docs")
    HttpResponse<byte[]> docs() {
        return HttpResponse.ok(page).contentType(MediaType.TEXT_HTML_TYPE);
    }

    @Get("/docs/{file}")
    HttpResponse<byte[]> asset(@PathVariable String file) {
        if (!ASSETS.contains(file)) {
            return HttpResponse.notFound();
        }
        MediaType type = file.endsWith(".js") ? MediaType.of("text/javascript")
                : file.endsWith(".css") ? MediaType.of("text/css") : MediaType.IMAGE_PNG_TYPE;
        return HttpResponse.ok(resource(assetRoot + file)).contentType(type)
                .header("Cache-Control", "public, max-age=86400");
    }

    private static byte[] resource(String name) {
        try (InputStream in = OpenApiDocumentController.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
