package io.stacksexplorer.conformance.official;

import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.conformance.Contract;
import io.stacksexplorer.conformance.SpecReports;
import io.swagger.v3.parser.OpenAPIV3Parser;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Hiro's current client, {@code @stacks/blockchain-api-client} 9.x (openapi-fetch), at the exact
 * version locked in {@code src/test/node9/package-lock.json}: installed apart from the 7.14.1 client
 * of {@code src/test/node} (both generations are in use, and they share package names, so each gets
 * a folder and a lock of its own), and its answers checked against spec/openapi.yaml.
 */
final class OfficialClient9 {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Path SOURCES = Path.of("src", "test", "node9");
    static final Path WORK = Path.of("target", "official-client-9");

    private static Set<String> specPaths;

    private OfficialClient9() {
    }

    /** npm ci of the locked client into target/official-client-9 (once per lock file), plus the scripts. */
    static void install() throws IOException {
        OfficialClientTest.requireNode();
        Files.createDirectories(WORK);
        try (var files = Files.list(SOURCES)) {
            for (Path file : files.filter(f -> !Files.isDirectory(f)).toList()) {
                Files.copy(file, WORK.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path stamp = WORK.resolve("node_modules").resolve(".installed-lock");
        String lock = Files.readString(WORK.resolve("package-lock.json"));
        if (Files.exists(stamp) && Files.readString(stamp).equals(lock)) {
            return;
        }
        Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
                .directory(WORK.toFile()).redirectErrorStream(true).start();
        String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!npm.waitFor(600, TimeUnit.SECONDS)) {
                npm.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        assertEquals(0, npm.exitValue(), "npm ci failed:\n" + output);
        Files.writeString(stamp, lock);
    }

    /** Runs {@code script} on {@code plan} to the end; returns what it printed, as JSON. */
    static JsonNode run(String script, JsonNode plan) throws IOException, InterruptedException {
        Path planFile = WORK.resolve(script + ".plan.json");
        JSON.writeValue(planFile.toFile(), plan);
        Process node = start(script, planFile);
        byte[] out = node.getInputStream().readAllBytes();
        if (!node.waitFor(180, TimeUnit.SECONDS)) {
            node.destroyForcibly();
            throw new AssertionError("node " + script + " did not finish");
        }
        assertEquals(0, node.exitValue(), "node " + script + " failed");
        return JSON.readTree(out);
    }

    /** Starts {@code script} on a plan file; its stderr goes to the test's. */
    static Process start(String script, Path planFile) throws IOException {
        return new ProcessBuilder("node", script, planFile.getFileName().toString()).directory(WORK.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /**
     * What spec/openapi.yaml says about one exchange the client made: the request it sent (path and
     * query, as the URL it fetched) and the answer it got (status, headers, and the body it parsed,
     * written back as JSON). Empty when both conform.
     */
    static List<String> specErrors(String name, JsonNode answer) throws IOException {
        URI url = URI.create(answer.get("url").asText());
        SimpleRequest.Builder request = SimpleRequest.Builder.get(url.getRawPath());
        queryParams(url.getRawQuery()).forEach(request::withQueryParam);
        SimpleResponse.Builder response = SimpleResponse.Builder.status(answer.get("status").asInt());
        for (Iterator<Map.Entry<String, JsonNode>> it = answer.get("headers").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> header = it.next();
            response.withHeader(header.getKey(), header.getValue().asText());
        }
        JsonNode body = answer.get("body");
        if (body != null && !body.isNull()) {
            response.withBody(JSON.writeValueAsString(body));
        }
        ValidationReport report = Contract.specValidator().validate(request.build(), response.build());
        List<String> errors = new ArrayList<>();
        if (report.hasErrors()) {
            errors.add(name + ": GET " + url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery())
                    + " answered " + answer.get("status") + " outside spec/openapi.yaml:\n" + SpecReports.format(report));
        }
        return errors;
    }

    /** Whether spec/openapi.yaml declares {@code path} (a successor route not merged yet is absent). */
    static synchronized boolean specHasPath(String path) {
        if (specPaths == null) {
            specPaths = Set.copyOf(new OpenAPIV3Parser().read(Contract.specLocation()).getPaths().keySet());
        }
        return specPaths.contains(path);
    }

    private static Map<String, List<String>> queryParams(String rawQuery) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return params;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
        return params;
    }
}
