package io.stacksexplorer.ops;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Throughput of the block and address routes with the JVM's default heap and with -Xmx256m: the
 * real server in a JVM of its own (java -cp … io.stacksexplorer.Application) on the demo chain in
 * an embedded H2 file, loaded by 8 concurrent clients over loopback. {@code mvn -B -o verify
 * -pl spec,api-server -Pbenchmarks -Dbenchmark=HeapSizeBenchmark}. docs/performance.md quotes
 * the figures; the run fails if the small heap keeps less than 90% of the default's throughput.
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class HeapSizeBenchmark {

    static final String ADDRESS = "SP3E6031YCXQRYY45QGXNP10X2P8NG07ST6WVGTXF";
    static final int CLIENTS = 8;
    static final long WARMUP_SECONDS = 15;
    static final long MEASURE_SECONDS = 30;

    @Test
    void smallHeapKeepsThroughput() throws Exception {
        Path dir = Files.createTempDirectory("heap-benchmark");
        try {
            // First start writes the demo chain into the H2 file; both measured runs read the same file.
            double[] defaultHeap = run(dir, List.of());
            double[] smallHeap = run(dir, List.of("-Xmx256m"));
            double[] defaultAgain = run(dir, List.of());
            double[] smallAgain = run(dir, List.of("-Xmx256m"));
            System.out.printf("%nThroughput, requests/s (%d clients, %d s after %d s warm-up; two runs each)%n",
                    CLIENTS, MEASURE_SECONDS, WARMUP_SECONDS);
            System.out.printf("| route | default heap | -Xmx256m | ratio |%n|---|---|---|---|%n");
            String[] routes = {"/extended/v2/blocks/{height}", "/extended/v2/addresses/{address}/transactions"};
            for (int r = 0; r < 2; r++) {
                double d = (defaultHeap[r] + defaultAgain[r]) / 2;
                double s = (smallHeap[r] + smallAgain[r]) / 2;
                System.out.printf("| %s | %.0f | %.0f | %.2f |%n", routes[r], d, s, s / d);
                assertTrue(s / d >= 0.90, routes[r] + ": -Xmx256m keeps only " + (s / d));
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Requests per second on {blocks, addresses} for one server JVM with the given options. */
    private static double[] run(Path dir, List<String> jvmOptions) throws Exception {
        int port;
        int observerPort;
        try (ServerSocket a = new ServerSocket(0); ServerSocket b = new ServerSocket(0)) {
            port = a.getLocalPort();
            observerPort = b.getLocalPort();
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.stacksexplorer.Application"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server-" + String.join("", jvmOptions) + ".log").toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("PG_") || k.startsWith("STACKS_") || k.equals("JAVA_TOOL_OPTIONS"));
        env.put("H2_FILE", dir.resolve("db").toString());
        env.put("STACKS_BLOCKCHAIN_API_HOST", "127.0.0.1");
        env.put("STACKS_BLOCKCHAIN_API_PORT", String.valueOf(port));
        env.put("STACKS_CORE_EVENT_PORT", String.valueOf(observerPort));
        env.put("STACKS_API_METRICS_ENABLED", "false");
        Process server = builder.directory(dir.toFile()).start();
        try {
            String base = "http://127.0.0.1:" + port;
            HttpClient client = HttpClient.newHttpClient();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (true) {
                try {
                    if (client.send(HttpRequest.newBuilder(URI.create(base + "/extended/v2/blocks/latest")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        break;
                    }
                } catch (java.io.IOException notYet) {
                    // starting
                }
                if (System.nanoTime() > deadline || !server.isAlive()) {
                    throw new IllegalStateException("server did not start; see " + dir);
                }
                Thread.sleep(500);
            }
            double blocks = load(client, base, true);
            double addresses = load(client, base, false);
            return new double[]{blocks, addresses};
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
    }

    private static double load(HttpClient client, String base, boolean blocks) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long warmupEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(WARMUP_SECONDS);
        long end = warmupEnd + TimeUnit.SECONDS.toNanos(MEASURE_SECONDS);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            Thread t = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (System.nanoTime() < end) {
                    String path = blocks ? "/extended/v2/blocks/" + (1 + random.nextInt(300))
                            : "/extended/v2/addresses/" + ADDRESS + "/transactions?limit=20&offset=" + random.nextInt(1000);
                    try {
                        int status = client.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                                HttpResponse.BodyHandlers.ofByteArray()).statusCode();
                        if (System.nanoTime() >= warmupEnd) {
                            (status == 200 ? done : errors).incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(errors.get() == 0, errors.get() + " failed requests");
        return done.get() / (double) MEASURE_SECONDS;
    }
}
