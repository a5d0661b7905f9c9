package io.stacksexplorer.conformance;

import au.com.dius.pact.provider.ProviderResponse;
import au.com.dius.pact.provider.junit5.HttpTestTarget;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import org.apache.hc.core5.http.HttpRequest;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.List;
import java.util.Map;

/**
 * The HTTP target of a provider verification that also checks every answer the server gives
 * against spec/openapi.yaml. Pact compares the answer with what the consumer expects; this
 * compares it with what the spec promises. {@link #assertAnswerConformed(String)} fails with the
 * interaction's name.
 */
public class SpecValidatingTarget extends HttpTestTarget {

    private volatile String lastRequest;
    private volatile ValidationReport lastReport;
    private volatile String lastBody;
    private volatile int lastStatus;

    public SpecValidatingTarget(String host, int port, String path) {
        super(host, port, path);
    }

    public static SpecValidatingTarget of(URL url) {
        int port = url.getPort() != -1 ? url.getPort() : url.getDefaultPort();
        String path = url.getPath() == null || url.getPath().equals("/") ? "" : url.getPath();
        if (!"http".equals(url.getProtocol())) {
            throw new IllegalArgumentException("only http:// base URLs are supported, got " + url);
        }
        return new SpecValidatingTarget(url.getHost(), port, path);
    }

    /** Forgets the previous interaction's answer. */
    public void reset() {
        lastRequest = null;
        lastReport = null;
        lastBody = null;
    }

    @Override
    public ProviderResponse executeInteraction(Object client, Object request) {
        ProviderResponse response = super.executeInteraction(client, request);
        String path = "/";
        String method = "GET";
        if (request instanceof HttpRequest http) {
            method = http.getMethod();
            try {
                URI uri = http.getUri();
                path = uri.getRawPath();
                lastRequest = method + " " + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        String body = response.getBody() == null || !response.getBody().isPresent()
                ? "" : response.getBody().valueAsString();
        String contentType = firstHeader(response.getHeaders(), "content-type");
        SimpleResponse.Builder answer = SimpleResponse.Builder.status(response.getStatusCode());
        if (contentType != null) {
            answer.withContentType(contentType);
        }
        if (!body.isEmpty()) {
            answer.withBody(body);
        }
        lastStatus = response.getStatusCode();
        lastBody = body;
        lastReport = Contract.specValidator().validateResponse(stripBasePath(path), Request.Method.valueOf(method),
                answer.build());
        return response;
    }

    /** Fails when the last answer was not one the spec allows. */
    public void assertAnswerConformed(String interaction) {
        ValidationReport report = lastReport;
        if (report != null && report.hasErrors()) {
            throw new AssertionError("Interaction '" + interaction + "': " + lastRequest + " answered "
                    + lastStatus + " outside spec/openapi.yaml:\n" + SpecReports.format(report)
                    + "\nbody: " + abbreviate(lastBody));
        }
    }

    private String stripBasePath(String path) {
        String base = getPath();
        if (base != null && !base.isEmpty() && path.startsWith(base)) {
            String rest = path.substring(base.length());
            return rest.startsWith("/") ? rest : "/" + rest;
        }
        return path;
    }

    private static String firstHeader(Map<String, List<String>> headers, String name) {
        if (headers == null) {
            return null;
        }
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
                return e.getValue().get(0);
            }
        }
        return null;
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 1500 ? s.substring(0, 1500) + "…" : s;
    }
}
