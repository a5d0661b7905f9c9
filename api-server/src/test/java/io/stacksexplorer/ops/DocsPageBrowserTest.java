package io.stacksexplorer.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * /extended/docs in a real browser: headless Chromium (Debian's package; .ci/run installs it, the
 * test skips where it is absent) renders every operation of the contract by its summary, with no
 * console error, no uncaught exception and no failed load. The screenshot stays in
 * api-server/target/docs-page.png (kept with the build's output).
 */
class DocsPageBrowserTest {

    static final Path SCREENSHOT = Path.of("target", "docs-page.png");

    @Test
    void rendersEveryOperationWithoutConsoleErrors() throws Exception {
        Optional<Path> chromium = HeadlessChromium.executable();
        assumeTrue(chromium.isPresent(), "chromium is not installed");
        List<String> summaries = new ArrayList<>();
        JsonNode spec = new ObjectMapper(new YAMLFactory()).readTree(OpenApiDocumentTest.specFile());
        spec.path("paths").forEach(path -> path.forEach(op -> {
            if (op.has("summary")) {
                summaries.add(op.get("summary").asText());
            }
        }));
        // The seven operations of the seed, the status again at its v1 path (getApiStatusV1), the three
        // cursor-paged successors of the peer's v9 and the event stream of subscriptions (streamNotifications).
        assertEquals(12, summaries.size(),
                "seven operations, the v1 status, three successors and the event stream: " + summaries);

        try (ApiServer server = ApiServer.start(TestDatabase.H2);
             HeadlessChromium browser = new HeadlessChromium(chromium.get())) {
            String url = server.context().getBean(EmbeddedServer.class).getURL() + "/extended/docs";
            browser.navigate(url);
            String text = "";
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline) {
                text = browser.evaluate("document.body ? document.body.innerText : ''");
                String seen = text;
                if (summaries.stream().allMatch(seen::contains)) {
                    break;
                }
                Thread.sleep(250);
            }
            browser.screenshot(SCREENSHOT);
            for (String summary : summaries) {
                assertTrue(text.contains(summary), "operation '" + summary + "' not shown; page text:\n" + text);
            }
            assertTrue(text.contains(spec.path("info").path("title").asText()), "the API title");
            assertTrue(browser.errors.isEmpty(), "browser errors: " + browser.errors);
            assertTrue(Files.size(SCREENSHOT) > 10_000, "a real picture");
        }
    }
}
