package io.stacksexplorer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.NodeFeeder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import picocli.CommandLine;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;

/**
 * How fast a stacks-node fills the database through the event observer: a generated log POSTed
 * payload by payload, one request in flight, each answered (and so committed) before the next, on
 * one kept-alive connection and on a new connection per payload; a server process of its own
 * ({@code STACKS_API_MODE=writeonly}, {@code -Xmx512m} unless {@code bench.jvmArgs} says otherwise) per run, on a fresh database: H2 file
 * (commit written at once), H2 file with {@code H2_FSYNC=true}, PostgreSQL (its settings printed;
 * the CI machine's server runs with fsync and synchronous_commit on). Timed from the first POST to
 * the last answer (start-up excluded); the second half of the log is also timed on its own (to its
 * last answer, derivation not waited for: the rate once the server's JIT compilers are done, see
 * NodeFeeder.Result); a second table says where the CPU went during each feed (the
 * server's JIT compilers, observer, deriving and I/O threads, PostgreSQL, the feeder; {@link ProcessCpu}). With {@code -Dbench.baseline=COMMIT} the same runs are made
 * with that commit's build first (exported with git archive and packaged, as ThroughputBenchmark).
 *
 * <pre>
 * mvn -B -o verify -pl spec,api-server -Pbenchmarks -Dbenchmark=ObserverBenchmark -Dpg.tests=true \
 *     [-Dbench.baseline=12d5522] [-Dbench.transactions=20000]
 * </pre>
 *
 * <p>Properties: {@code bench.runs} (default 3: every configuration that many times, the builds
 * alternating, and a table of medians and ranges, {@link Medians}), {@code bench.transactions} (default 20,000), {@code bench.seed} (11),
 * {@code bench.databases} (default {@code h2,h2-fsync,postgres}; postgres only with pg.tests),
 * {@code bench.derive} (default {@code before-answer,after-answer}: {@code STACKS_OBSERVER_DERIVE};
 * after-answer runs are timed to the moment the last payload is derived, read from the server's
 * {@code stacks_ingest_payloads_not_derived} metric, not to the last answer; a baseline build older
 * than the setting, 583564b, runs before-answer only), {@code bench.jvmArgs} (the server JVM's options,
 * space-separated; default {@code -Xmx512m}).
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class ObserverBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TRANSACTIONS = Long.getLong("bench.transactions", 20_000);
    private static final long SEED = Long.getLong("bench.seed", 11);
    /** The generator's era: {@code mixed} (default), {@code 3} or {@code 2}. */
    private static final String ERA = System.getProperty("bench.era", "mixed");
    private static final String BASELINE = System.getProperty("bench.baseline", "");
    private static final List<String> DATABASES = List.of(System.getProperty("bench.databases",
            TestDatabase.postgresEnabled() ? "h2,h2-fsync,postgres" : "h2,h2-fsync").split(","));

    private static final List<String> DERIVE = List.of(System.getProperty("bench.derive",
            "before-answer,after-answer").split(","));
    /**
     * Runs of every configuration (issue 51: a figure is a median, not one reading of a fast or slow
     * hour); the builds alternate within each run, configuration by configuration.
     */
    private static final int RUNS = Integer.getInteger("bench.runs", 3);
    /** The server JVM's options (space-separated), to measure a JVM setting against the default. */
    private static final List<String> JVM_ARGS = List.of(System.getProperty("bench.jvmArgs", "-Xmx512m").trim().split("\\s+"));

    /**
     * @param derivedSeconds after-answer: from the first POST until the last payload was derived
     *                       (the figure the rates use); before-answer: the same as the answers' seconds
     */
    /** A database, a derivation mode and a connection style: what one feed is measured with. */
    private record Configuration(String database, String derive, NodeFeeder.Connections connections) {
    }

    private record Row(int run, String build, String database, String derive, NodeFeeder.Connections connections,
                       NodeFeeder.Result result, double derivedSeconds, Map<String, Double> cpu) {

        /** The configuration this row is one run of. */
        String configuration() {
            return database + " | " + derive + " | " + connectionName(connections);
        }
    }

    /** The CPU table's columns: the server's thread groups (ProcessCpu), then the other processes. */
    private static final List<String> CPU_COLUMNS = List.of("JIT compilers", "observer thread", "deriving thread",
            "listener I/O thread", "garbage collector", "other threads", "PostgreSQL processes", "feeder JVM");

    @Test
    void observerThroughput() throws Exception {
        Path module = Path.of("").toAbsolutePath();
        Path root = module.getParent();
        Path work = module.resolve("target/bench-observer");
        Files.createDirectories(work);
        Path log = work.resolve("observer-" + ERA + "-" + TRANSACTIONS + "-" + SEED + ".tsv");
        if (!Files.exists(log)) {
            assertOk(new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions",
                    Long.toString(TRANSACTIONS), "--seed", Long.toString(SEED), "--era", ERA));
        }
        JsonNode summary = JSON.readTree(work.resolve(log.getFileName() + ".summary.json").toFile());
        List<NodeFeeder.Payload> payloads = NodeFeeder.read(log);
        long blocks = summary.get("blocks").asLong() + summary.get("orphaned_blocks").asLong();
        long transactions = summary.get("transactions").asLong();

        Map<String, Path> builds = new java.util.LinkedHashMap<>();
        if (!BASELINE.isBlank()) {
            builds.put(BASELINE, ThroughputBenchmark.baselineJar(root,
                    module.resolve("target/bench-baseline-" + BASELINE), BASELINE));
        }
        builds.put("this build", module.resolve("target/api-server.jar"));

        Map<String, Boolean> hasAfterAnswer = new HashMap<>();
        for (Map.Entry<String, Path> build : builds.entrySet()) {
            hasAfterAnswer.put(build.getKey(), derivesAfterAnswer(build.getValue()));
        }
        // After-answer: PostgreSQL only, and only for a build that has the setting.
        List<Configuration> configurations = new ArrayList<>();
        for (String database : DATABASES) {
            for (String derive : DERIVE) {
                if (!derive.equals("after-answer") || database.equals("postgres")) {
                    for (NodeFeeder.Connections connections : NodeFeeder.Connections.values()) {
                        configurations.add(new Configuration(database, derive, connections));
                    }
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        String postgresSettings = "";
        for (int run = 1; run <= RUNS; run++) {
            for (Configuration c : configurations) {
                for (Map.Entry<String, Path> build : builds.entrySet()) {
                    if (c.derive().equals("after-answer") && !hasAfterAnswer.get(build.getKey())) {
                        continue;
                    }
                    Map<String, String> env = new HashMap<>();
                    String schema = null;
                    switch (c.database()) {
                        case "h2" -> env.put("H2_FILE", work.resolve("h2-" + UUID.randomUUID()).resolve("db").toString());
                        case "h2-fsync" -> {
                            env.put("H2_FILE", work.resolve("h2-" + UUID.randomUUID()).resolve("db").toString());
                            env.put("H2_FSYNC", "true");
                        }
                        case "postgres" -> {
                            schema = "obs" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
                            env.putAll(TestDatabase.postgresEnvironment(schema));
                            postgresSettings = postgresSettings(env);
                        }
                        default -> throw new IllegalArgumentException("unknown database " + c.database());
                    }
                    env.put("STACKS_OBSERVER_DERIVE", c.derive());
                    try {
                        Row row = feed(run, build, c.database(), c.derive(), env, payloads, c.connections(),
                                work.resolve("server-" + c.database() + ".log"));
                        rows.add(row);
                        System.out.printf("run %d of %d, %s, %s, %s, %s: %s; derived after %.1f s%n", run, RUNS,
                                build.getKey(), c.database(), c.derive(), c.connections(), row.result(),
                                row.derivedSeconds());
                    } finally {
                        if (schema != null) {
                            dropSchema(env, schema);
                        }
                        deleteH2(env);
                    }
                }
            }
        }
        System.out.println(table(rows, transactions, blocks, payloads.size(), postgresSettings));
        System.out.println(Medians.table(rows.stream().map(r -> new Medians.Reading(r.configuration(), r.build(),
                r.run(), blocks / r.derivedSeconds(), transactions / r.derivedSeconds())).toList(), RUNS, "database | derived | connection"));
    }

    private static Row feed(int run, Map.Entry<String, Path> build, String database, String derive, Map<String, String> env,
                            List<NodeFeeder.Payload> payloads, NodeFeeder.Connections connections, Path serverLog)
            throws Exception {
        int port = freePort();
        int metricsPort = freePort();
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(JVM_ARGS);
        command.addAll(List.of("-jar", build.getValue().toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        // Only the run's own database settings: an inherited PG_HOST would win over H2_FILE.
        builder.environment().keySet().removeIf(name -> name.startsWith("PG_") || name.startsWith("H2_"));
        builder.environment().putAll(env);
        builder.environment().put("STACKS_API_MODE", "writeonly");
        builder.environment().put("STACKS_CORE_EVENT_HOST", "127.0.0.1");
        builder.environment().put("STACKS_CORE_EVENT_PORT", Integer.toString(port));
        builder.environment().put("DEMO_DATA", "false");
        builder.environment().put("STACKS_API_METRICS_PORT", Integer.toString(metricsPort));
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.to(serverLog.toFile()));
        Process server = builder.start();
        try {
            if (!NodeFeeder.waitUntilAnswering("127.0.0.1", port, server, TimeUnit.MINUTES.toMillis(3))) {
                throw new IllegalStateException("server did not come up: " + serverLog);
            }
            // Where the feed's CPU went: the server's threads, PostgreSQL (every 'postgres' process on
            // this machine), and this JVM, which feeds.
            Map<String, Double> serverBefore = ProcessCpu.threadsOf(server.pid());
            Map<Long, Double> postgresBefore = ProcessCpu.byProcess("postgres");
            double feederBefore = ProcessCpu.process(ProcessHandle.current().pid());
            long started = System.nanoTime();
            NodeFeeder.Result answered = NodeFeeder.deliverAll("127.0.0.1", port, connections, payloads);
            double derived = answered.seconds();
            if (derive.equals("after-answer")) {
                awaitDerived(metricsPort);
                derived = (System.nanoTime() - started) / 1e9;
            }
            Map<String, Double> cpu = ProcessCpu.minus(ProcessCpu.threadsOf(server.pid()), serverBefore);
            if (database.equals("postgres")) {
                cpu.put("PostgreSQL processes", ProcessCpu.spentBetween(postgresBefore, ProcessCpu.byProcess("postgres")));
            }
            cpu.put("feeder JVM", ProcessCpu.process(ProcessHandle.current().pid()) - feederBefore);
            return new Row(run, build.getKey(), database, derive, connections, answered, derived, cpu);
        } finally {
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
    }

    /** Until the server's metric of payloads answered and not derived reads 0. */
    private static void awaitDerived(int metricsPort) throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpRequest scrape = java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (System.nanoTime() < deadline) {
            String metrics = http.send(scrape, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            for (String line : metrics.split("\n")) {
                if (line.startsWith("stacks_ingest_payloads_not_derived ")
                        && Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim()) == 0) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("payloads still not derived after 10 minutes");
    }

    private static String table(List<Row> rows, long transactions, long blocks, int payloads, String postgresSettings) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nObserver benchmark, %s: generated log, %,d transactions in %,d blocks, %,d payloads"
                        + " (seed %d); %d cores; server JVM %s; PostgreSQL %s%n%n", Instant.now(), transactions, blocks,
                payloads, SEED, Runtime.getRuntime().availableProcessors(), String.join(" ", JVM_ARGS), postgresSettings));
        out.append("| run | build | database | derived | connection | seconds to last answer / last derived | tx/s | blocks/s"
                + " | payloads/s | ms per payload p50 / p99 | /new_block ms p50 / p99 | second half: blocks/s to its last answer |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            NodeFeeder.Result r = row.result();
            double seconds = row.derivedSeconds();
            out.append(String.format("| %d | %s | %s | %s | %s | %.1f / %.1f | %,.0f | %,.0f | %,.0f | %.2f / %.2f | %.2f / %.2f | %,.0f |%n",
                    row.run(), row.build(), row.database(), row.derive(), connectionName(row.connections()),
                    r.seconds(), seconds, transactions / seconds, blocks / seconds, payloads / seconds,
                    r.p50Millis(), r.p99Millis(), r.blockP50Millis(), r.blockP99Millis(),
                    r.secondHalfBlocks() / r.secondHalfSeconds()));
        }
        out.append(String.format("%nCPU seconds from the first POST to the last answer (after-answer: to the last"
                + " derivation), and per payload (/proc, user + system):%n%n"));
        out.append("| run | build | database | derived | connection | " + String.join(" | ", CPU_COLUMNS)
                + " |\n|---|---|---|---|---|" + "---|".repeat(CPU_COLUMNS.size()) + "\n");
        for (Row row : rows) {
            out.append(String.format("| %d | %s | %s | %s | %s |", row.run(), row.build(), row.database(), row.derive(),
                    connectionName(row.connections())));
            for (String column : CPU_COLUMNS) {
                Double seconds = row.cpu().get(column);
                out.append(seconds == null ? " |" : String.format(" %.1f (%.2f ms) |", seconds, 1000 * seconds / payloads));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String connectionName(NodeFeeder.Connections connections) {
        return connections == NodeFeeder.Connections.KEEP_ALIVE ? "kept alive" : "new per payload";
    }

    private static String postgresSettings(Map<String, String> env) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + env.get("PG_HOST") + ":" + env.get("PG_PORT")
                + "/" + env.get("PG_DATABASE"), env.get("PG_USER"), env.getOrDefault("PG_PASSWORD", ""));
             Statement st = c.createStatement()) {
            StringBuilder settings = new StringBuilder();
            for (String name : List.of("server_version", "fsync", "synchronous_commit", "full_page_writes")) {
                try (ResultSet rs = st.executeQuery("SHOW " + name)) {
                    rs.next();
                    settings.append(settings.length() == 0 ? "" : ", ").append(name).append('=').append(rs.getString(1));
                }
            }
            return settings.toString();
        }
    }

    /** Drops a server's PostgreSQL schema (PG_* of {@code env}) after a run; also used by SubscriptionBenchmark. */
    static void dropSchema(Map<String, String> env, String schema) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + env.get("PG_HOST") + ":" + env.get("PG_PORT")
                + "/" + env.get("PG_DATABASE"), env.get("PG_USER"), env.getOrDefault("PG_PASSWORD", ""));
             Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        }
    }

    private static void deleteH2(Map<String, String> env) throws IOException {
        if (env.containsKey("H2_FILE")) {
            Path dir = Path.of(env.get("H2_FILE")).getParent();
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void assertOk(int exit) {
        if (exit != 0) {
            throw new IllegalStateException("generate exited " + exit);
        }
    }

    /**
     * Whether a build has {@code STACKS_OBSERVER_DERIVE=after-answer} (583564b and later): its jar
     * holds the deriving thread's class. An older baseline would ignore the setting and derive
     * before the answer, and its rows would be mislabelled.
     */
    private static boolean derivesAfterAnswer(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.getEntry("io/stacksexplorer/ingest/AfterAnswerDerivation.class") != null;
        }
    }
}
