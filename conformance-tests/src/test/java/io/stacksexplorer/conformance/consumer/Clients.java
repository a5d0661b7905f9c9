package io.stacksexplorer.conformance.consumer;

import au.com.dius.pact.consumer.MockServer;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.client.ApiClient;
import io.stacksexplorer.client.ApiException;
import io.stacksexplorer.client.model.Problem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generated client pointed at Pact's mock server, and what the tests check on errors. */
final class Clients {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private Clients() {
    }

    static ApiClient client(MockServer mockServer) {
        ApiClient client = new ApiClient();
        client.updateBaseUri(mockServer.getUrl());
        return client;
    }

    /** The problem body of a failed call, after checking its status and content type. */
    static Problem problem(ApiException e, int status) {
        assertEquals(status, e.getCode(), "HTTP status");
        String contentType = e.getResponseHeaders().firstValue("content-type").orElse("");
        assertTrue(contentType.startsWith("application/problem+json"), "problem content type, got " + contentType);
        try {
            Problem problem = JSON.readValue(e.getResponseBody(), Problem.class);
            assertEquals(status, problem.getStatus(), "problem status");
            return problem;
        } catch (Exception parse) {
            throw new AssertionError("problem body does not parse: " + e.getResponseBody(), parse);
        }
    }
}
