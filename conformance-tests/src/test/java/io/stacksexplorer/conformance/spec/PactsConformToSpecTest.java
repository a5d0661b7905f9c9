package io.stacksexplorer.conformance.spec;

import au.com.dius.pact.core.model.DefaultPactReader;
import au.com.dius.pact.core.model.FileSource;
import au.com.dius.pact.core.model.Interaction;
import au.com.dius.pact.core.model.Pact;
import au.com.dius.pact.core.model.SynchronousRequestResponse;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.pact.PactRequest;
import com.atlassian.oai.validator.pact.PactResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import io.stacksexplorer.conformance.Contract;
import io.stacksexplorer.conformance.SpecReports;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The pacts may only expect what spec/openapi.yaml promises: every interaction's request and
 * response (the examples the consumer tests recorded) are validated against the spec, and every
 * operation has a success interaction and one for each 4xx answer it documents.
 *
 * <p>An interaction expecting a 400 sends a malformed request on purpose, so only its response is
 * validated (it must be the documented 400 answer).
 */
class PactsConformToSpecTest {

    private static List<Recorded> interactions() throws IOException {
        Path folder = Path.of(Contract.PACT_FOLDER);
        List<Recorded> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                Pact pact = DefaultPactReader.INSTANCE.loadPact(new FileSource(file.toFile()));
                for (Interaction interaction : pact.getInteractions()) {
                    if (interaction instanceof SynchronousRequestResponse http) {
                        all.add(new Recorded(file.toFile(), interaction.getDescription(), http));
                    }
                }
            }
        }
        return all;
    }

    @TestFactory
    Stream<DynamicTest> everyInteractionIsValidAgainstTheSpec() throws IOException {
        List<Recorded> recorded = interactions();
        assertFalse(recorded.isEmpty(), "no pacts in " + Path.of(Contract.PACT_FOLDER).toAbsolutePath());
        return recorded.stream().map(r -> DynamicTest.dynamicTest(r.description(), () -> {
            Request request = PactRequest.of(r.http().getRequest());
            var response = PactResponse.of(r.http().getResponse());
            ValidationReport report = r.http().getResponse().getStatus() == 400
                    ? Contract.specValidator().validateResponse(request.getPath(), request.getMethod(), response)
                    : Contract.specValidator().validate(request, response);
            if (report.hasErrors()) {
                fail("Interaction '" + r.description() + "' (" + r.file().getName() + ") expects what "
                        + "spec/openapi.yaml does not promise: " + request.getMethod() + " " + request.getPath()
                        + " -> " + r.http().getResponse().getStatus() + "\n" + SpecReports.format(report));
            }
        }));
    }

    @Test
    void everyOperationHasSuccessAndDocumentedErrorInteractions() throws IOException {
        OpenAPI spec = new OpenAPIV3Parser().read(Contract.specLocation());
        Map<String, Set<Integer>> covered = new HashMap<>();
        List<Recorded> recorded = interactions();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, PathItem> path : spec.getPaths().entrySet()) {
            Operation get = path.getValue().getGet();
            if (get == null) {
                continue;
            }
            Pattern template = Pattern.compile("^" + path.getKey().replaceAll("\\{[^}]+}", "[^/]+") + "$");
            Set<Integer> statuses = covered.computeIfAbsent(get.getOperationId(), k -> new TreeSet<>());
            for (Recorded r : recorded) {
                if (template.matcher(r.http().getRequest().getPath()).matches()) {
                    statuses.add(r.http().getResponse().getStatus());
                }
            }
            // An endless event stream has no whole body for a request/response pact to record or a
            // provider verification to wait for; api-server's SubscriptionsContract verifies it.
            boolean stream = get.getResponses().get("200") != null && get.getResponses().get("200").getContent() != null
                    && get.getResponses().get("200").getContent().keySet().equals(Set.of("text/event-stream"));
            if (!stream && statuses.stream().noneMatch(s -> s >= 200 && s < 300)) {
                missing.add(get.getOperationId() + ": no success interaction");
            }
            for (String code : get.getResponses().keySet()) {
                if (code.matches("4\\d\\d") && !statuses.contains(Integer.parseInt(code))) {
                    missing.add(get.getOperationId() + ": no interaction for its documented " + code);
                }
            }
        }
        if (!missing.isEmpty()) {
            fail("The pacts do not cover the spec:\n  " + String.join("\n  ", missing) + "\ncovered: " + covered);
        }
    }

    private record Recorded(File file, String description, SynchronousRequestResponse http) {
    }
}
