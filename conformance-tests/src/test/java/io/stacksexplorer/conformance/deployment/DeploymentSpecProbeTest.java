package io.stacksexplorer.conformance.deployment;

import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.conformance.Contract;
import io.stacksexplorer.conformance.SpecReports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Read-only probes of a running deployment whose answers must be valid against spec/openapi.yaml
 * whatever data it holds: the status (at both of its paths), the latest block, and the chain tip looked up by height,
 * hash and index block hash. Runs only with {@code -Dexplorer.verify.url=http://host:port}.
 */
@EnabledIf("io.stacksexplorer.conformance.deployment.Deployment#configured")
class DeploymentSpecProbeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void statusAndChainTipAnswerAsTheSpecSays() throws Exception {
        String status = get("/extended", 200);
        get("/extended/v1/status", 200);
        JsonNode tip = JSON.readTree(status).path("chain_tip");
        String latest = get("/extended/v2/blocks/latest", -1);
        if (tip.isMissingNode()) {
            return; // nothing indexed yet: latest is a 404 problem, checked against the spec above
        }
        assertTrue(latest.contains("\"height\""), "a chain tip is reported but /extended/v2/blocks/latest has no block");
        get("/extended/v2/blocks/" + tip.path("block_height").asLong(), 200);
        get("/extended/v2/blocks/" + tip.path("block_hash").asText(), 200);
        get("/extended/v2/blocks/" + tip.path("index_block_hash").asText(), 200);
    }

    /** GETs {@code path}, checks the answer against the spec and, unless -1, its status. */
    private String get(String path, int expectedStatus) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(Deployment.baseUrl() + path))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        SimpleResponse.Builder answer = SimpleResponse.Builder.status(response.statusCode()).withBody(response.body());
        response.headers().firstValue("content-type").ifPresent(answer::withContentType);
        ValidationReport report = Contract.specValidator().validateResponse(path, Request.Method.GET, answer.build());
        if (report.hasErrors()) {
            fail("GET " + path + " answered " + response.statusCode() + " outside spec/openapi.yaml:\n"
                    + SpecReports.format(report));
        }
        if (expectedStatus != -1 && response.statusCode() != expectedStatus) {
            fail("GET " + path + " answered " + response.statusCode() + ", expected " + expectedStatus
                    + ": " + response.body());
        }
        return response.body();
    }
}
