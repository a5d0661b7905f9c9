package io.stacksexplorer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server process of {@link LiveReadBenchmark}: API on a port of its own, observer unless readonly,
 * metrics on a port of its own, the database from {@code pg} (PG_* variables), no demo data.
 */
final class LiveServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Pattern CACHE = Pattern.compile("^stacks_answer_cache_total\\{.*result=\"(hit|miss)\".*} (\\S+)$");
    /** Offset pages that reached their route: from kept parts, or read (web.KeptPages; absent in older builds). */
    private static final Pattern PAGES = Pattern.compile("^stacks_answer_cache_pages_total\\{.*result=\"(hit|miss)\".*} (\\S+)$");

    final Process process;
    final String base;
    final int observerPort;
    final int metricsPort;
    final Path log;
    private final HttpClient http = HttpClient.newHttpClient();

    private LiveServer(Process process, String base, int observerPort, int metricsPort, Path log) {
        this.process = process;
        this.base = base;
        this.observerPort = observerPort;
        this.metricsPort = metricsPort;
        this.log = log;
    }

    static LiveServer start(String name, Path jar, String jvmArgs, Map<String, String> pg, boolean readonly, Path work) throws IOException {
        int api = freePort();
        int observer = freePort();
        int metrics = freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(jvmArgs.trim().split("\\s+")));
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("PG_") || k.startsWith("H2_") || k.startsWith("STACKS_"));
        env.putAll(pg);
        env.put("DEMO_DATA", "false");
        env.put("STACKS_BLOCKCHAIN_API_HOST", "127.0.0.1");
        env.put("STACKS_BLOCKCHAIN_API_PORT", String.valueOf(api));
        env.put("STACKS_CORE_EVENT_HOST", "127.0.0.1");
        env.put("STACKS_CORE_EVENT_PORT", String.valueOf(observer));
        env.put("STACKS_API_METRICS_PORT", String.valueOf(metrics));
        if (readonly) {
            env.put("STACKS_API_MODE", "readonly");
        }
        Path log = work.resolve("server-" + name + ".log");
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return new LiveServer(builder.start(), "http://127.0.0.1:" + api, observer, metrics, log);
    }

    /** Until the API answers with a tip at least {@code height} high (0: any tip). */
    void awaitTip(long height) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        long seen = -1;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("server exited; log " + log);
            }
            try {
                seen = tip();
                if (seen >= Math.max(1, height)) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("server not ready (tip " + seen + ", expected " + height + "); log " + log);
    }

    long tip() throws IOException, InterruptedException {
        HttpResponse<String> status = http.send(HttpRequest.newBuilder(URI.create(base + "/extended"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (status.statusCode() != 200) {
            return -1;
        }
        JsonNode body = JSON.readTree(status.body());
        return body.path("chain_tip").path("block_height").asLong(-1);
    }

    /** The answer cache's hits and misses so far, or null when the server has no such metric. */
    double[] cacheCounts() throws IOException, InterruptedException {
        String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        double[] counts = new double[4];
        boolean found = false;
        for (String line : metrics.split("\n")) {
            Matcher m = CACHE.matcher(line);
            if (m.matches()) {
                counts[m.group(1).equals("hit") ? 0 : 1] += Double.parseDouble(m.group(2));
                found = true;
            }
            Matcher pages = PAGES.matcher(line);
            if (pages.matches()) {
                counts[pages.group(1).equals("hit") ? 2 : 3] += Double.parseDouble(pages.group(2));
            }
        }
        return found ? counts : null;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
