package io.stacksexplorer.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * README's curl examples are run as written against a server that filled its empty embedded
 * database with the demo preset on start-up (as {@code java -jar api-server.jar} does): every
 * example answers 200, except one a sentence says "answers `NNN`" about, and an
 * {@code If-None-Match} example answers 304 with the ETag the same URL gave. The ids in the
 * examples are the demo chain's, so this fails when the chain changes and README does not.
 */
class ReadmeExamplesTest {

    /** A curl command against the local server: its URL and whether it sends If-None-Match. */
    private static final Pattern CURL = Pattern.compile(
            "curl [^\\n`]*?(-H 'If-None-Match: [^']*' )?\"?localhost:3999(/[^\"\\s`]*)\"?");
    private static final Pattern ANSWERS = Pattern.compile("^\\s*answers `(\\d{3})`");

    private static ApiServer api;

    @BeforeAll
    static void start() {
        Map<String, Object> props = TestDatabase.H2.freshProperties();
        props.put("demo-data.enabled", true);
        api = ApiServer.start(props);
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    record Example(String path, boolean conditional, int status) {
    }

    static List<Example> examples(String readme) {
        List<Example> examples = new ArrayList<>();
        Matcher m = CURL.matcher(readme);
        while (m.find()) {
            String after = readme.substring(m.end(), Math.min(readme.length(), m.end() + 40)).replaceFirst("^`", "");
            Matcher answers = ANSWERS.matcher(after);
            int status = m.group(1) != null ? 304 : answers.find() ? Integer.parseInt(answers.group(1)) : 200;
            examples.add(new Example(m.group(2), m.group(1) != null, status));
        }
        return examples;
    }

    @Test
    void everyCurlExampleAnswersAsReadmeSays() throws IOException {
        List<Example> examples = examples(Files.readString(Path.of("..", "README.md")));
        assertTrue(examples.size() >= 8, "README's demo examples: " + examples);
        for (Example example : examples) {
            Map<String, String> headers = Map.of();
            if (example.conditional()) {
                String etag = api.get(example.path()).headers().firstValue("etag").orElseThrow();
                headers = Map.of("If-None-Match", etag);
            }
            ApiServer.Answer answer = api.get(example.path(), headers);
            assertEquals(example.status(), answer.status(), example.path() + ": " + answer.rawBody());
            if (example.status() == 200) {
                assertFalse(answer.body().isEmpty(), example.path() + " answered an empty body");
                String missing = answer.rawBody().contains("\"found\":false") ? answer.rawBody() : "";
                assertEquals("", missing, example.path() + " names something the demo chain does not hold");
            }
        }
    }
}
