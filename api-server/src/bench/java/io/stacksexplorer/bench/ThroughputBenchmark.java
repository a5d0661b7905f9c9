package io.stacksexplorer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.ingest.TsvReplay;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.TxFacts;
import io.stacksexplorer.write.TxOutcome;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Throughput under concurrent load of the build of {@code main} at a baseline commit against the
 * current build, side by side in one run, on PostgreSQL (as production runs it) and on H2, on a small
 * and a large chain, run on purpose only:
 * <pre>
 * mvn -B -o verify -pl spec,api-server -Pbenchmarks -Dbenchmark=ThroughputBenchmark -Dpg.tests=true
 * </pre>
 * The baseline's sources are exported with {@code git archive} into {@code api-server/target/bench-baseline-<commit>}
 * and packaged there (offline, never installed). The current build's {@code generate} writes one log per
 * chain size ({@code bench.transactions}, default a 10,000- and a 100,000-transaction mixed-era chain of seed
 * 11, under {@code api-server/target/bench-throughput/}); each build then {@code replay}s that log into a
 * database of its own (a PostgreSQL database on the configured server, {@code PG_HOST}/{@code PG_PORT},
 * default 127.0.0.1:5432, durable settings as the server has them; or an H2 file) and serves it from a JVM
 * with the same flags. Plans differ by table size, which is why both sizes run. Per route,
 * {@code wrk -t2 -c16 -d8s} (Debian's {@code wrk}; without it, a Java generator with 16 connections) runs
 * against old, new, old, new (after a 3-second pass over every route and a 5-second warm-up of the route
 * itself); each build's best req/s, the median of its runs' p99 and its lowest CPU per request count.
 * Answers of both builds are compared first; they may differ only by the deliberate changes made since
 * the baseline ({@link AnswerDifferences}), and the run fails otherwise.
 *
 * <p>Properties: {@code bench.baseline} (commit, default 055817d), {@code bench.databases}
 * ({@code postgresql,h2} with {@code -Dpg.tests=true}, else {@code h2}), {@code bench.transactions}
 * (chain sizes, default {@code 10000,100000}), {@code bench.seed} (11), {@code bench.keepDatabases}
 * (keep the replayed databases and reuse them in the next run, default false), {@code bench.seconds}
 * (default 8), {@code bench.connections} (16), {@code bench.threads} (2), {@code bench.jvmArgs} (default
 * {@code -Xms1g -Xmx1g}), {@code bench.routes} (route names to run, separated by {@code ;} since names
 * contain commas; default all), {@code bench.rounds} (alternating runs per route and build, default 2),
 * {@code bench.warmUp} (seconds of load per route and build before the rate is checked, default 15),
 * {@code bench.warmStep} and {@code bench.warmUpMax} (then steps of 2 s until two in a row are within 10 %,
 * 30 s at most).
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class ThroughputBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASELINE = System.getProperty("bench.baseline", "055817d");
    private static final int SECONDS = Integer.getInteger("bench.seconds", 8);
    /** Seconds of load per route and build before its rate is checked for steadiness (see warmUntilSteady). */
    private static final int WARM_UP = Integer.getInteger("bench.warmUp", 15);
    /** Then steps of this many seconds until the rate is steady (see warmUntilSteady). */
    private static final int WARM_STEP = Integer.getInteger("bench.warmStep", 2);
    /** At most this many seconds of warm-up per route and build. */
    private static final int WARM_UP_MAX = Integer.getInteger("bench.warmUpMax", 30);
    /** Seconds of load per route and build in the pass over all routes before any route is measured. */
    private static final int FIRST_PASS = Integer.getInteger("bench.firstPass", 3);
    private static final int CONNECTIONS = Integer.getInteger("bench.connections", 16);
    /** Alternating runs per route and build (old, new, old, new, ...). */
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 2);
    private static final int THREADS = Integer.getInteger("bench.threads", 2);
    private static final String JVM_ARGS = System.getProperty("bench.jvmArgs", "-Xms1g -Xmx1g");
    private static final long SEED = Long.getLong("bench.seed", 11);
    private static final boolean KEEP = Boolean.getBoolean("bench.keepDatabases");
    private static final String PG_HOST = System.getenv().getOrDefault("PG_HOST", "127.0.0.1");
    private static final String PG_PORT = System.getenv().getOrDefault("PG_PORT", "5432");

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
        List<String> databases = List.of(System.getProperty("bench.databases",
                Boolean.getBoolean("pg.tests") ? "postgresql,h2" : "h2").split(","));
        List<String> sizes = List.of(System.getProperty("bench.transactions", "10000,100000").split(","));
        Path work = module.resolve("target/bench-throughput");
        Files.createDirectories(work);
        String machine = Runtime.getRuntime().availableProcessors() + " cores, load average "
                + Files.readString(Path.of("/proc/loadavg")).split(" ")[0] + " at the start, "
                + java.time.LocalDate.now();
        List<String> tables = new ArrayList<>();
        for (String size : sizes) {
            GeneratedChain chain = GeneratedChain.of(newJar, work, Long.parseLong(size.trim()), SEED);
            for (String database : databases) {
                Storage oldStore = Storage.of(database.trim(), "old", chain, work);
                Storage newStore = Storage.of(database.trim(), "new", chain, work);
                // The replays are set-up, not measurement: both at once.
                Process oldReplay = oldStore.replayIfNeeded(oldJar, chain);
                Process newReplay = newStore.replayIfNeeded(newJar, chain);
                Storage.await(oldReplay, "old replay");
                Storage.await(newReplay, "new replay");
                try (Server old = Server.start("old", oldJar, oldStore);
                     Server current = Server.start("new", newJar, newStore)) {
                    old.awaitReady(chain.tipHeight);
                    current.awaitReady(chain.tipHeight);
                    String title = database + ", " + chain.describe();
                    tables.add(measure(title, old, current, routes(old.base, chain)) + "\nMachine: " + machine + "\n");
                    System.out.println(tables.get(tables.size() - 1));
                } finally {
                    if (!KEEP) {
                        oldStore.drop();
                        newStore.drop();
                    }
                }
            }
        }
        System.out.println("\n" + String.join("\n", tables));
    }

    /** Answers compared, then every route loaded on both servers; the table of one database and chain. */
    private static String measure(String title, Server old, Server current, Map<String, String> routes)
            throws Exception {
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
            throw new AssertionError(title + ": answers differ beyond the documented deliberate changes: " + mismatches);
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
            // Warm both JITs on this route until it serves at a steady rate, then alternate so that a
            // busy moment hits both alike.
            int oldWarm = warmUntilSteady(wrk, old, route.getValue());
            int newWarm = warmUntilSteady(wrk, current, route.getValue());
            System.out.printf("%s, %s: warmed %d s (old), %d s (new)%n", title, route.getKey(), oldWarm, newWarm);
            List<Result> oldRuns = new ArrayList<>();
            List<Result> newRuns = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                oldRuns.add(load(wrk, old, route.getValue(), SECONDS));
                newRuns.add(load(wrk, current, route.getValue(), SECONDS));
            }
            results.put(route.getKey(), new Result[] {summary(oldRuns), summary(newRuns)});
            System.out.printf("%s, %s: old %s, new %s%n", title, route.getKey(), oldRuns, newRuns);
        }
        return table(title, results, wrk);
    }

    // ---------------------------------------------------------------------------------------------
    // The chain and where each build keeps it

    /** A log written by the current build's {@code generate}, with what its summary says. */
    record GeneratedChain(Path log, long transactions, long seed, long tipHeight, long blocks, String hotAddress,
                          String hotContract, String failedDeploymentContractId) {

        static GeneratedChain of(Path jar, Path work, long transactions, long seed) throws Exception {
            Path log = work.resolve("chain-" + transactions + "-" + seed + ".tsv");
            Path summaryFile = log.resolveSibling(log.getFileName() + ".summary.json");
            if (!Files.exists(summaryFile)) {
                run(work, List.of(java(), "-jar", jar.toString(), "generate", log.toString(),
                        "--transactions", String.valueOf(transactions), "--seed", String.valueOf(seed)));
            }
            JsonNode summary = JSON.readTree(summaryFile.toFile());
            return new GeneratedChain(log, transactions, seed, summary.path("tip_height").asLong(),
                    summary.path("blocks").asLong(), summary.path("hot_address").asText(),
                    summary.path("hot_contract").asText(), failedDeployment(log));
        }

        /** The first contract whose deployment in the log did not succeed (a contract-status route shows it). */
        private static String failedDeployment(Path log) throws IOException {
            CodecTxDecoder decoder = new CodecTxDecoder();
            try (Stream<String> lines = Files.lines(log)) {
                for (Iterator<String> it = lines.iterator(); it.hasNext(); ) {
                    String line = it.next();
                    if (!line.contains("\t/new_block\t")) {
                        continue;
                    }
                    NewBlock block = TsvReplay.delivery(line).block();
                    for (NewTransaction tx : block.transactions()) {
                        if (tx.status() != TxOutcome.SUCCESS) {
                            TxFacts facts = decoder.decode(tx.rawTx());
                            if (facts.contractId() != null && "smart_contract".equals(facts.txType())) {
                                return facts.contractId();
                            }
                        }
                    }
                }
            }
            throw new IllegalStateException(log + " holds no failed contract deployment");
        }

        String describe() {
            return String.format("generated chain of %,d transactions (seed %d, era mixed, %,d blocks)",
                    transactions, seed, blocks);
        }
    }

    /** A build's own database for one chain: a PostgreSQL database or an H2 file. */
    record Storage(String kind, String name, Path h2File) {

        static Storage of(String kind, String build, GeneratedChain chain, Path work) {
            // The baseline's database is named after its commit, so that a kept one is never served by another build.
            String name = "bench_" + (build.equals("old") ? BASELINE : build) + "_" + chain.transactions + "_" + chain.seed;
            return switch (kind) {
                case "postgresql" -> new Storage(kind, name, null);
                case "h2" -> new Storage(kind, name, work.resolve(name).resolve("db"));
                default -> throw new IllegalArgumentException("bench.databases: postgresql or h2, not " + kind);
            };
        }

        void environment(Map<String, String> env) {
            env.keySet().removeIf(k -> k.startsWith("PG_") || k.startsWith("H2_"));
            env.put("DEMO_DATA", "false");
            if (kind.equals("postgresql")) {
                env.put("PG_HOST", PG_HOST);
                env.put("PG_PORT", PG_PORT);
                env.put("PG_DATABASE", name);
            } else {
                env.put("H2_FILE", h2File.toString());
            }
        }

        /** Starts the replay of {@code chain} into a new database, or returns null when a kept one is reused. */
        Process replayIfNeeded(Path jar, GeneratedChain chain) throws Exception {
            if (KEEP && exists()) {
                return null;
            }
            drop();
            if (kind.equals("postgresql")) {
                admin("CREATE DATABASE " + name);
            }
            ProcessBuilder builder = new ProcessBuilder(java(), "-Xmx1g", "-jar", jar.toString(), "replay",
                    chain.log.toString());
            environment(builder.environment());
            Path log = Files.createTempFile("bench-replay-" + name + "-", ".log");
            return builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }

        static void await(Process replay, String what) throws InterruptedException {
            if (replay != null && replay.waitFor() != 0) {
                throw new IllegalStateException(what + " failed (exit " + replay.exitValue() + ")");
            }
        }

        private boolean exists() throws Exception {
            if (kind.equals("h2")) {
                return Files.exists(h2File.resolveSibling("db.mv.db"));
            }
            try (Connection c = DriverManager.getConnection(adminUrl(), "postgres", "");
                 PreparedStatement s = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                s.setString(1, name);
                return s.executeQuery().next();
            }
        }

        void drop() throws Exception {
            if (kind.equals("h2")) {
                if (Files.exists(h2File.getParent())) {
                    try (Stream<Path> files = Files.walk(h2File.getParent())) {
                        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                    }
                }
            } else {
                admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            }
        }

        private static String adminUrl() {
            return "jdbc:postgresql://" + PG_HOST + ":" + PG_PORT + "/postgres";
        }

        private static void admin(String sql) throws Exception {
            try (Connection c = DriverManager.getConnection(adminUrl(), "postgres", "");
                 Statement s = c.createStatement()) {
                s.execute(sql);
            }
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

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** One server JVM on a random loopback port, serving the database its build replayed. */
    static final class Server implements AutoCloseable {

        final String base;
        private final Process process;
        private final Path log;

        private Server(String base, Process process, Path log) {
            this.base = base;
            this.process = process;
            this.log = log;
        }

        static Server start(String name, Path jar, Storage storage) throws IOException {
            int port = freePort();
            int observer = freePort();
            List<String> command = new ArrayList<>();
            command.add(java());
            command.addAll(List.of(JVM_ARGS.trim().split("\\s+")));
            command.addAll(List.of("-jar", jar.toString()));
            ProcessBuilder builder = new ProcessBuilder(command);
            Map<String, String> env = builder.environment();
            storage.environment(env);
            env.put("STACKS_BLOCKCHAIN_API_HOST", "127.0.0.1");
            env.put("STACKS_BLOCKCHAIN_API_PORT", String.valueOf(port));
            env.put("STACKS_CORE_EVENT_HOST", "127.0.0.1");
            env.put("STACKS_CORE_EVENT_PORT", String.valueOf(observer));
            // Builds since the metrics listener (ops.MetricsListener) would both take its default port 9153.
            env.put("STACKS_API_METRICS_PORT", "0");
            Path log = Files.createTempFile("bench-" + name + "-", ".log");
            builder.redirectErrorStream(true).redirectOutput(log.toFile());
            return new Server("http://127.0.0.1:" + port, builder.start(), log);
        }

        /** Waits until the server answers with the replayed chain's tip. */
        void awaitReady(long tipHeight) throws Exception {
            HttpClient http = HttpClient.newHttpClient();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            long seen = -1;
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("server exited; log " + log + ":\n" + Files.readString(log));
                }
                try {
                    JsonNode status = JSON.readTree(body(get(http, base + "/extended")));
                    seen = status.path("chain_tip").path("block_height").asLong();
                    if (seen == tipHeight) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(500);
            }
            throw new IllegalStateException("server not ready (tip " + seen + ", expected " + tipHeight + "); log " + log);
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
    // Routes, chosen from the generated chain's summary and the answers

    private static Map<String, String> routes(String base, GeneratedChain chain) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String address = chain.hotAddress;
        String contract = chain.hotContract;
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
        long middle = chain.tipHeight / 2;
        String middleHash = JSON.readTree(body(get(http, base + "/extended/v2/blocks/" + middle))).path("hash").asText();

        Map<String, String> routes = new LinkedHashMap<>();
        routes.put("/extended", "/extended");
        routes.put("block by height", "/extended/v2/blocks/" + middle);
        routes.put("block by hash", "/extended/v2/blocks/" + middleHash);
        routes.put("tx lookup, 2 ids", "/extended/v1/tx/multiple?" + two);
        routes.put("tx lookup, 20 ids", "/extended/v1/tx/multiple?tx_id=" + String.join("&tx_id=", twenty));
        routes.put("contract status, 2 ids", "/extended/v2/smart-contracts/status?contract_id=" + contract
                + "&contract_id=" + chain.failedDeploymentContractId);
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

    static boolean wrkAvailable() {
        try {
            return new ProcessBuilder("wrk", "--version").redirectErrorStream(true).start().waitFor() >= 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * Loads a route for {@link #WARM_UP} seconds, then in steps of {@link #WARM_STEP} seconds until two
     * steps in a row serve within 10 % of each other's requests per second, or {@link #WARM_UP_MAX}
     * seconds in all: on this 2-core machine a fresh server's route took about 15 s of load to reach
     * its rate (2,273, 3,350, 9,254, then 13,000-14,600 req/s in 5-s rounds of block by hash), and a
     * round measured before that showed a p99 of 200 ms and more that warm rounds never did.
     *
     * @return the seconds of load it took
     */
    private static int warmUntilSteady(boolean wrk, Server server, String path) throws Exception {
        load(wrk, server, path, WARM_UP);
        int seconds = WARM_UP;
        double previous = load(wrk, server, path, WARM_STEP).rps();
        seconds += WARM_STEP;
        while (seconds < WARM_UP_MAX) {
            double rps = load(wrk, server, path, WARM_STEP).rps();
            seconds += WARM_STEP;
            if (Math.abs(rps - previous) <= 0.10 * Math.max(rps, previous)) {
                break;
            }
            previous = rps;
        }
        return seconds;
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
        Result figures = wrkFigures(out);
        if (figures == null || NON_2XX.matcher(out).find()) {
            throw new IllegalStateException("wrk on " + url + ":\n" + out);
        }
        return figures;
    }

    /**
     * Requests per second and the 99th percentile in milliseconds from the output of {@code wrk --latency}
     * (CPU left 0), or null when it has neither; also used by LiveReadBenchmark.
     */
    static Result wrkFigures(String out) {
        Matcher rps = RPS.matcher(out);
        Matcher p99 = P99.matcher(out);
        if (!rps.find() || !p99.find()) {
            return null;
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

    private static String table(String title, Map<String, Result[]> results, boolean wrk) {
        StringBuilder out = new StringBuilder("\nThroughput on " + title + "; " + (wrk ? "wrk -t" + THREADS : "Java load generator,")
                + " -c" + CONNECTIONS + ", " + SECONDS + " s, " + ROUNDS
                + " rounds (best req/s, median p99); old = main at " + BASELINE
                + ", new = this build, each on the database it replayed; JVM " + JVM_ARGS + "\n\n");
        out.append("| route | req/s old | req/s new | ratio | p99 old (ms) | p99 new (ms) | CPU µs/req old | CPU µs/req new |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        results.forEach((route, r) -> out.append(String.format("| %s | %,.0f | %,.0f | %.2f | %.1f | %.1f | %,.0f | %,.0f |%n",
                route, r[0].rps(), r[1].rps(), r[1].rps() / r[0].rps(), r[0].p99(), r[1].p99(), r[0].cpuMicros(),
                r[1].cpuMicros())));
        out.append("\nAnswers of both builds agree on every route (status and body; bodies differ"
                + " only by the documented deliberate changes, see AnswerDifferences).\n");
        return out.toString();
    }
}
