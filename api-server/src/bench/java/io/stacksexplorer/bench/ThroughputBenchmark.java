package io.stacksexplorer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Throughput under concurrent load of the build of {@code main} at a baseline commit against the
 * current build, side by side in one run, run on purpose only:
 * <pre>
 * mvn -B -o verify -pl spec,api-server -Pbenchmarks -Dbenchmark=ThroughputBenchmark
 * </pre>
 * The baseline's sources are exported with {@code git archive} into {@code api-server/target/bench-baseline-<commit>}
 * and packaged there (offline, never installed). Each server runs in its own JVM with the same flags on
 * its own in-memory H2 database, into which it writes the deterministic demo chain through its own write
 * path at start-up (300 blocks, ~10,000 transactions). Per route, {@code wrk -t2 -c16 -d8s} (Debian's
 * {@code wrk}; without it, a Java generator with 16 connections) runs against old, new, old, new (after a
 * 3-second pass over every route and a 5-second warm-up of the route itself); each build's best req/s,
 * the median of its runs' p99 and its lowest CPU per request count. Answers of both builds are compared first; they may differ only
 * by the deliberate changes made since the baseline ({@link AnswerDifferences}), and the run fails otherwise.
 *
 * <p>Properties: {@code bench.baseline} (commit, default 055817d), {@code bench.seconds} (default 8),
 * {@code bench.connections} (16), {@code bench.threads} (2), {@code bench.jvmArgs} (default
 * {@code -Xms1g -Xmx1g}), {@code bench.routes} (route names to run, separated by {@code ;} since names contain commas; default all), {@code bench.rounds}
 * (alternating runs per route and build, default 2).
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class ThroughputBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASELINE = System.getProperty("bench.baseline", "055817d");
    private static final int SECONDS = Integer.getInteger("bench.seconds", 8);
    /** Seconds of load per route and build before measuring, so that both JITs have compiled the route. */
    private static final int WARM_UP = Integer.getInteger("bench.warmUp", 5);
    /** Seconds of load per route and build in the pass over all routes before any route is measured. */
    private static final int FIRST_PASS = Integer.getInteger("bench.firstPass", 3);
    private static final int CONNECTIONS = Integer.getInteger("bench.connections", 16);
    /** Alternating runs per route and build (old, new, old, new, ...). */
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 2);
    private static final int THREADS = Integer.getInteger("bench.threads", 2);
    private static final String JVM_ARGS = System.getProperty("bench.jvmArgs", "-Xms1g -Xmx1g");

    /**
     * One load run: requests per second, the 99th percentile in milliseconds, and the server's CPU time
     * per request in microseconds (user + system time of its JVM over the run, so GC and JIT count too).
     * On a machine shared with other work, req/s and p99 move with the neighbours' load; CPU per request
     * much less so.
     */
    record Result(double rps, double p99, double cpuMicros) {
    }

    @Test
    void oldAgainstNew() throws Exception {
        Path module = Path.of("").toAbsolutePath();
        Path root = module.getParent();
        Path newJar = module.resolve("target/api-server.jar");
        if (!Files.exists(newJar)) {
            throw new IllegalStateException("package the current build first; -Pbenchmarks does (docs/benchmarks.md)");
        }
        Path oldJar = baselineJar(root, module.resolve("target/bench-baseline-" + BASELINE), BASELINE);

        try (Server old = Server.start("old", oldJar); Server current = Server.start("new", newJar)) {
            old.awaitReady();
            current.awaitReady();
            Map<String, String> routes = routes(old.base);
            String only = System.getProperty("bench.routes", "");
            if (!only.isBlank()) {
                Set<String> keep = new LinkedHashSet<>(List.of(only.split(";")));
                routes.keySet().retainAll(keep);
            }
            HttpClient http = HttpClient.newHttpClient();
            List<String> mismatches = new ArrayList<>();
            for (Map.Entry<String, String> route : routes.entrySet()) {
                String a = get(http, old.base + route.getValue());
                String b = get(http, current.base + route.getValue());
                String difference = AnswerDifferences.unexplained(a, b);
                if (difference != null) {
                    mismatches.add(route.getKey() + " (" + difference + ")");
                }
            }
            if (!mismatches.isEmpty()) {
                // Comparing throughput only means something when both builds serve the same answers.
                throw new AssertionError("answers differ beyond the documented deliberate changes: " + mismatches);
            }
            boolean wrk = wrkAvailable();
            // One pass over every route first: a fresh JVM compiles most of the request path on the first
            // route it serves, which otherwise lands in that route's measurement (C2 time counts as CPU).
            for (String path : routes.values()) {
                load(wrk, old, path, FIRST_PASS);
                load(wrk, current, path, FIRST_PASS);
            }
            Map<String, Result[]> results = new LinkedHashMap<>();
            for (Map.Entry<String, String> route : routes.entrySet()) {
                // Warm both JITs on this route, then alternate so that a busy moment hits both alike.
                load(wrk, old, route.getValue(), WARM_UP);
                load(wrk, current, route.getValue(), WARM_UP);
                List<Result> oldRuns = new ArrayList<>();
                List<Result> newRuns = new ArrayList<>();
                for (int round = 0; round < ROUNDS; round++) {
                    oldRuns.add(load(wrk, old, route.getValue(), SECONDS));
                    newRuns.add(load(wrk, current, route.getValue(), SECONDS));
                }
                results.put(route.getKey(), new Result[] {summary(oldRuns), summary(newRuns)});
                System.out.printf("%s: old %s, new %s%n", route.getKey(), oldRuns, newRuns);
            }
            System.out.println(table(results, wrk, mismatches));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The two builds

    /** The packaged jar of {@code commit}, exported into {@code dir} with git archive and built offline once. */
    static Path baselineJar(Path root, Path dir, String commit) throws Exception {
        Path jar = dir.resolve("api-server/target/api-server.jar");
        if (Files.exists(jar)) {
            return jar;
        }
        Files.createDirectories(dir);
        // git archive, not a worktree: nothing is registered in the repository's metadata.
        run(root, List.of("bash", "-c", "git archive " + commit + " | tar -x -C '" + dir + "'"));
        run(dir, List.of("mvn", "-B", "-q", "-o", "package", "-DskipTests"));
        return jar;
    }

    private static void run(Path dir, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(command + " failed in " + dir);
        }
    }

    /** One server JVM on a random loopback port with its own in-memory database and the demo chain. */
    static final class Server implements AutoCloseable {

        final String base;
        private final Process process;
        private final Path log;

        private Server(String base, Process process, Path log) {
            this.base = base;
            this.process = process;
            this.log = log;
        }

        static Server start(String name, Path jar) throws IOException {
            int port = freePort();
            int observer = freePort();
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(List.of(JVM_ARGS.trim().split("\\s+")));
            command.addAll(List.of("-jar", jar.toString()));
            ProcessBuilder builder = new ProcessBuilder(command);
            Map<String, String> env = builder.environment();
            env.keySet().removeIf(k -> k.startsWith("PG_"));
            env.put("H2_IN_MEMORY", "true");
            env.put("DEMO_DATA", "true");
            env.put("STACKS_BLOCKCHAIN_API_HOST", "127.0.0.1");
            env.put("STACKS_BLOCKCHAIN_API_PORT", String.valueOf(port));
            env.put("STACKS_CORE_EVENT_HOST", "127.0.0.1");
            env.put("STACKS_CORE_EVENT_PORT", String.valueOf(observer));
            Path log = Files.createTempFile("bench-" + name + "-", ".log");
            builder.redirectErrorStream(true).redirectOutput(log.toFile());
            return new Server("http://127.0.0.1:" + port, builder.start(), log);
        }

        void awaitReady() throws Exception {
            HttpClient http = HttpClient.newHttpClient();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("server exited; log " + log + ":\n" + Files.readString(log));
                }
                try {
                    JsonNode status = JSON.readTree(body(get(http, base + "/extended")));
                    if (status.path("chain_tip").path("block_height").asInt() > 0
                            && Files.readString(log).contains("Demo data")) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(500);
            }
            throw new IllegalStateException("server not ready; log " + log);
        }

        /** User + system CPU time of the server JVM so far, in microseconds (Linux /proc). */
        long cpuMicros() throws IOException {
            String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name; clock ticks of 10 ms.
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000;
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }

        private static int freePort() throws IOException {
            try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Routes, chosen from the demo chain's answers

    private static Map<String, String> routes(String base) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        io.stacksexplorer.demo.DemoChain.Summary s =
                io.stacksexplorer.demo.DemoChain.generate(io.stacksexplorer.demo.DemoChain.DEFAULT_SEED).summary();
        String address = s.hotAddresses().get(0);
        String contract = s.contractIdWithLogs();
        List<String> transfers = new ArrayList<>();
        for (JsonNode r : JSON.readTree(body(get(http, base + "/extended/v2/addresses/" + address
                + "/transactions?limit=20&offset=7"))).path("results")) {
            transfers.add(r.path("tx").path("tx_id").asText());
        }
        Set<String> calls = new LinkedHashSet<>();
        for (JsonNode r : JSON.readTree(body(get(http, base + "/extended/v1/contract/" + contract
                + "/events?limit=50&offset=100"))).path("results")) {
            calls.add(r.path("tx_id").asText());
        }
        List<String> twenty = new ArrayList<>(transfers.subList(0, 10));
        twenty.addAll(new ArrayList<>(calls).subList(0, 10));
        String two = "tx_id=" + transfers.get(15) + "&tx_id=" + new ArrayList<>(calls).get(12);

        Map<String, String> routes = new LinkedHashMap<>();
        routes.put("/extended", "/extended");
        routes.put("block by height", "/extended/v2/blocks/150");
        routes.put("tx lookup, 2 ids", "/extended/v1/tx/multiple?" + two);
        routes.put("tx lookup, 20 ids", "/extended/v1/tx/multiple?tx_id=" + String.join("&tx_id=", twenty));
        routes.put("contract status, 2 ids", "/extended/v2/smart-contracts/status?contract_id=" + contract
                + "&contract_id=" + s.failedDeploymentContractId());
        routes.put("contract events, 20", "/extended/v1/contract/" + contract + "/events?limit=20");
        routes.put("address transactions, 20", "/extended/v2/addresses/" + address + "/transactions?limit=20");
        routes.put("address transactions, 50", "/extended/v2/addresses/" + address + "/transactions?limit=50");
        routes.put("address mempool", "/extended/v1/address/" + address + "/mempool");
        return routes;
    }

    /** The body of a {@link #get} answer. */
    private static String body(String answer) {
        return answer.substring(answer.indexOf('\n') + 1);
    }

    /** Status line, ETag and body of a GET, as one string to compare. */
    private static String get(HttpClient http, String url) throws IOException {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " " + response.headers().firstValue("ETag").orElse("") + "\n"
                    + response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Load

    /**
     * A build's figures on one route over its rounds: the best requests per second, the median of the
     * rounds' p99 (a single run's p99 at saturation moves by a few milliseconds with one GC pause or one
     * descheduling of the server on this 2-core machine, so one number per run is not a measurement), and
     * the lowest CPU per request. With two rounds, the median is the mean of the two.
     */
    static Result summary(List<Result> runs) {
        double rps = runs.stream().mapToDouble(Result::rps).max().orElseThrow();
        double cpu = runs.stream().mapToDouble(Result::cpuMicros).min().orElseThrow();
        double[] p99 = runs.stream().mapToDouble(Result::p99).sorted().toArray();
        int middle = p99.length / 2;
        double median = p99.length % 2 == 1 ? p99[middle] : (p99[middle - 1] + p99[middle]) / 2;
        return new Result(rps, median, cpu);
    }

    private static boolean wrkAvailable() {
        try {
            return new ProcessBuilder("wrk", "--version").redirectErrorStream(true).start().waitFor() >= 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static Result load(boolean wrk, Server server, String path, int seconds) throws Exception {
        long cpu = server.cpuMicros();
        Result r = wrk ? wrk(server.base + path, seconds) : javaLoad(server.base + path, seconds);
        return new Result(r.rps(), r.p99(), (server.cpuMicros() - cpu) / (r.rps() * seconds));
    }

    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern P99 = Pattern.compile("\\s99%\\s+([0-9.]+)(us|ms|s)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    private static Result wrk(String url, int seconds) throws Exception {
        Process p = new ProcessBuilder("wrk", "-t" + THREADS, "-c" + CONNECTIONS, "-d" + seconds + "s", "--latency",
                url).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        Matcher rps = RPS.matcher(out);
        Matcher p99 = P99.matcher(out);
        if (!rps.find() || !p99.find() || NON_2XX.matcher(out).find()) {
            throw new IllegalStateException("wrk on " + url + ":\n" + out);
        }
        double value = Double.parseDouble(p99.group(1));
        double millis = switch (p99.group(2)) {
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            default -> value;
        };
        return new Result(Double.parseDouble(rps.group(1)), millis, 0);
    }

    /** Without wrk: one thread per connection, each sending its next request when the last answered. */
    private static Result javaLoad(String url, int seconds) throws Exception {
        HttpClient http = HttpClient.newBuilder().executor(Runnable::run).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).GET().build();
        AtomicBoolean stop = new AtomicBoolean();
        List<long[]> perThread = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        int[] counts = new int[CONNECTIONS];
        for (int c = 0; c < CONNECTIONS; c++) {
            long[] latencies = new long[4_000_000 / CONNECTIONS];
            perThread.add(latencies);
            int index = c;
            threads.add(daemon(() -> {
                int n = 0;
                while (!stop.get() && n < latencies.length) {
                    long start = System.nanoTime();
                    try {
                        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        if (response.statusCode() != 200) {
                            throw new IllegalStateException(url + " answered " + response.statusCode());
                        }
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    latencies[n++] = System.nanoTime() - start;
                }
                counts[index] = n;
            }));
        }
        long start = System.nanoTime();
        threads.forEach(Thread::start);
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int at = 0;
        for (int c = 0; c < CONNECTIONS; c++) {
            System.arraycopy(perThread.get(c), 0, all, at, counts[c]);
            at += counts[c];
        }
        Arrays.sort(all);
        return new Result(total / elapsed, all[Math.max(0, (int) Math.ceil(0.99 * total) - 1)] / 1e6, 0);
    }

    private static Thread daemon(Runnable body) {
        Thread t = new Thread(body);
        t.setDaemon(true);
        return t;
    }

    private static String table(Map<String, Result[]> results, boolean wrk, List<String> mismatches) {
        StringBuilder out = new StringBuilder("\nThroughput, " + (wrk ? "wrk -t" + THREADS : "Java load generator,")
                + " -c" + CONNECTIONS + ", " + SECONDS + " s, " + ROUNDS
                + " rounds (best req/s, median p99); old = main at " + BASELINE
                + ", new = this build; demo chain on in-memory H2, JVM " + JVM_ARGS + "\n\n");
        out.append("| route | req/s old | req/s new | ratio | p99 old (ms) | p99 new (ms) | CPU µs/req old | CPU µs/req new |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        results.forEach((route, r) -> out.append(String.format("| %s | %,.0f | %,.0f | %.2f | %.1f | %.1f | %,.0f | %,.0f |%n",
                route, r[0].rps(), r[1].rps(), r[1].rps() / r[0].rps(), r[0].p99(), r[1].p99(), r[0].cpuMicros(),
                r[1].cpuMicros())));
        out.append(mismatches.isEmpty() ? "\nAnswers of both builds agree on every route (status and body; bodies differ"
                + " only by the documented deliberate changes, see AnswerDifferences).\n"
                : "\nANSWERS DIFFER on: " + mismatches + "\n");
        return out.toString();
    }
}
