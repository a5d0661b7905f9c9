package io.stacksexplorer.ops;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP client for the operational routes (not part of the API contract). */
final class Http {

    record Answer(int status, String contentType, String body, byte[] bytes, HttpResponse<byte[]> raw, long millis) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {
    }

    static Answer get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build());
    }

    static Answer head(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
    }

    static Answer post(String url, String json) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private static Answer send(HttpRequest request) {
        long started = System.nanoTime();
        try {
            HttpResponse<byte[]> r = CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
            long millis = (System.nanoTime() - started) / 1_000_000;
            return new Answer(r.statusCode(), r.headers().firstValue("content-type").orElse(""),
                    new String(r.body(), java.nio.charset.StandardCharsets.UTF_8), r.body(), r, millis);
        } catch (IOException e) {
            throw new IllegalStateException(request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
