package io.stacksexplorer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.ingest.NodeFeeder;
import io.stacksexplorer.ops.PgCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import picocli.CommandLine;

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
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Reads at full speed while the chain is live (issue 48): req/s, p99, server CPU per request and
 * the answer cache's hit rate of every route, with requests spread over thousands of keys, while
 * the server ingests a live feed through its event observer; first on the writer itself, then on a
 * {@code readonly} server on a streaming standby while the writer feeds the primary.
 *
 * <pre>
 * mvn -B -o verify -pl spec,api-server -Pbenchmarks -Dbenchmark=LiveReadBenchmark -Dpg.tests=true \
 *     [-Dbench.paces=idle,quiet,busy] [-Dbench.standby=false] [-Dbench.seconds=5] [-Dbench.routes='/extended;block by hash']
 * </pre>
 *
 * <p>A mixed-era log is generated (seed {@code bench.seed}) with {@code bench.transactions} plus
 * {@code bench.liveTransactions} transactions; the blocks up to the first {@code bench.transactions}
 * are replayed by the {@code replay} command into a PostgreSQL cluster of the benchmark's own
 * (PostgreSQL's durable defaults plus {@code bench.pg.settings}, {@link PgCluster#durable}); a
 * server process ({@code bench.jvmArgs}, API and observer, the server's defaults otherwise) then
 * serves it, and the rest of the log is its live feed ({@link LiveFeed}) at each pace of
 * {@code bench.paces}: {@code idle} (none), {@code quiet} (a block every 5 s), {@code busy} (5
 * payloads a second). Request lines come from the replayed database ({@link SpreadKeys}); per pace
 * and route, {@code wrk -t2 -c16 --latency} with a script that picks a line at random per request,
 * {@code bench.warmUp} seconds, then {@code bench.seconds} measured, after one pass of
 * {@code bench.firstPass} seconds over every route per server with the busy feed on (its JIT, the
 * ingest path's too). The server's CPU counts
 * everything its JVM did meanwhile, the writer's ingest too. The hit rate is read from the server's
 * {@code stacks_answer_cache_total{result=hit|miss}} counter around the measured seconds ("n/a" on
 * a build without it). Then ({@code bench.standby}, default true) a standby is made with
 * {@code pg_basebackup -R} and a {@code readonly} server on it is measured the same way.
 *
 * <p>Beside each route, the peer's req/s (and p99 where known) as measured for issue 48, and the
 * targets: under the busy feed, at least {@value #OF_IDLE} of the route's idle rate, at least
 * {@value #OF_PEER}× the peer's req/s, p99 at most the peer's.
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class LiveReadBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TRANSACTIONS = Long.getLong("bench.transactions", 20_000);
    private static final long LIVE_TRANSACTIONS = Long.getLong("bench.liveTransactions", Math.max(5_000, TRANSACTIONS / 4));
    private static final long SEED = Long.getLong("bench.seed", 11);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 5);
    private static final int WARM_UP = Integer.getInteger("bench.warmUp", 2);
    /** Seconds of load per route in the pass over every route before a server is measured (its JIT, its database's cache). */
    private static final int FIRST_PASS = Integer.getInteger("bench.firstPass", 4);
    private static final int CONNECTIONS = Integer.getInteger("bench.connections", 16);
    private static final int THREADS = Integer.getInteger("bench.threads", 2);
    /** Request lines per route, at most (the block routes take every canonical block). */
    private static final int KEYS = Integer.getInteger("bench.keys", 4_000);
    private static final String JVM_ARGS = System.getProperty("bench.jvmArgs", "-Xms1g -Xmx1g");
    private static final boolean STANDBY = Boolean.parseBoolean(System.getProperty("bench.standby", "true"));
    private static final List<LiveFeed.Pace> PACES = java.util.Arrays.stream(
            System.getProperty("bench.paces", "idle,quiet,busy").split(","))
            .map(p -> LiveFeed.Pace.valueOf(p.trim().toUpperCase())).toList();
    private static final List<String> PG_SETTINGS = System.getProperty("bench.pg.settings", "").isBlank() ? List.of()
            : List.of(System.getProperty("bench.pg.settings").split(","));

    private static final double OF_IDLE = 0.7;
    private static final double OF_PEER = 10;

    /**
     * The reference: today's peer (stacks-blockchain-api v9.0.2) on PostgreSQL 15, a 20,000-transaction
     * generated chain, {@code wrk -t2 -c16}, one request line per route, req/s (issue 48; /extended
     * measured between 1,907 and 3,537, the best taken). The peer cannot run here.
     */
    static final Map<String, Double> PEER_RPS = new LinkedHashMap<>();
    static {
        PEER_RPS.put("/extended", 3_537.0);
        PEER_RPS.put("block by height", 1_666.0);
        PEER_RPS.put("block by hash", 1_675.0);
        PEER_RPS.put("tx lookup, 2 ids", 481.0);
        PEER_RPS.put("tx lookup, 20 ids", 120.0);
        PEER_RPS.put("contract status, 2 ids", 1_365.0);
        PEER_RPS.put("contract events, page 1", 980.0);
        PEER_RPS.put("contract events, offset 4,500", 393.0);
        PEER_RPS.put("address transactions, page 1", 36.0);
        PEER_RPS.put("address transactions, offset 3,000", 22.0);
        PEER_RPS.put("address transactions, offset 6,500", 17.0);
        PEER_RPS.put("address mempool", 347.0);
    }
    /** The peer's p99 in milliseconds, known for /extended only (issue 48). */
    static final Map<String, Double> PEER_P99 = Map.of("/extended", 22.0);

    /**
     * One measured run: wrk's figures, the server's CPU per request, PostgreSQL's (every {@code postgres}
     * process of the machine: the clusters' backends, WAL sender and receiver, and the startup process that
     * replays WAL on a standby), the cache's hit rate (NaN: no metric).
     */
    record Run(double rps, double p99, double cpuMicros, double pgCpuMicros, double hitRate, long non2xx,
               double answerBytes) {
    }

    @Test
    void readsWhileTheChainIsLive() throws Exception {
        assumeTrue(PgCluster.available(), "needs -Dpg.tests=true and the PostgreSQL server binaries");
        if (!ThroughputBenchmark.wrkAvailable()) {
            throw new IllegalStateException("needs wrk (apt-get install -y wrk): the spread keys are a wrk script");
        }
        Path module = Path.of("").toAbsolutePath();
        Path jar = module.resolve("target/api-server.jar");
        Path work = module.resolve("target/bench-live");
        Files.createDirectories(work);
        Path log = work.resolve("live-mixed-" + TRANSACTIONS + "+" + LIVE_TRANSACTIONS + "-" + SEED + ".tsv");
        if (!Files.exists(log)) {
            int exit = new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions",
                    Long.toString(TRANSACTIONS + LIVE_TRANSACTIONS), "--seed", Long.toString(SEED), "--era", "mixed");
            if (exit != 0) {
                throw new IllegalStateException("generate exited " + exit);
            }
        }
        List<String> lines = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
        int cut = replayedPart(lines);
        Path replayed = work.resolve("live-replayed.tsv");
        Files.write(replayed, lines.subList(0, cut));
        List<NodeFeeder.Payload> live = new ArrayList<>();
        for (String line : lines.subList(cut, lines.size())) {
            String[] columns = line.split("\t", 4);
            live.add(new NodeFeeder.Payload(columns[2], columns[3]));
        }
        String loadAtStart = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        StringBuilder report = new StringBuilder();
        try (PgCluster primary = PgCluster.durable(PG_SETTINGS)) {
            Map<String, String> pg = new HashMap<>(primary.env());
            long replayStarted = System.nanoTime();
            run(jar, List.of("-Xmx1g"), List.of("replay", replayed.toString()), pg, work.resolve("replay.log"));
            String chain = describeChain(pg, (System.nanoTime() - replayStarted) / 1e9, live.size());
            Map<String, List<String>> routes = SpreadKeys.routes(pg, KEYS, SEED, SpreadKeys.mempoolPrincipals(live));
            String only = System.getProperty("bench.routes", "");
            if (!only.isBlank()) {
                routes.keySet().retainAll(new LinkedHashSet<>(List.of(only.split(";"))));
            }
            Map<String, Path> scripts = new LinkedHashMap<>();
            for (Map.Entry<String, List<String>> route : routes.entrySet()) {
                scripts.put(route.getKey(), SpreadKeys.wrkScript(work, route.getKey(), route.getValue()));
                System.out.printf("%s: %s%n", route.getKey(), SpreadKeys.describe(route.getValue()));
            }
            report.append(String.format("%nLive read benchmark, %s: %s; %d cores, load average %s at the start;"
                            + " wrk -t%d -c%d, %d s warm-up then %d s per route and pace; server JVM %s; PostgreSQL"
                            + " (own cluster, durable defaults%s)%n", Instant.now(), chain,
                    Runtime.getRuntime().availableProcessors(), loadAtStart, THREADS, CONNECTIONS, WARM_UP, SECONDS,
                    JVM_ARGS, PG_SETTINGS.isEmpty() ? "" : ", " + String.join(", ", PG_SETTINGS)));

            try (Server writer = Server.start("writer", jar, pg, false, work);
                 LiveFeed feed = new LiveFeed("127.0.0.1", writer.observerPort, live)) {
                if (!NodeFeeder.waitUntilAnswering("127.0.0.1", writer.observerPort, writer.process,
                        TimeUnit.MINUTES.toMillis(3))) {
                    throw new IllegalStateException("the writer's observer did not come up; log " + writer.log);
                }
                writer.awaitTip(0);
                report.append(measure("writer (API and observer, on the primary)", writer, feed, routes, scripts));
                if (STANDBY) {
                    try (PgCluster standby = primary.standby();
                         Server reader = Server.start("reader", jar, standby.env(), true, work)) {
                        reader.awaitTip(writer.tip());
                        report.append(measure("readonly server on a streaming standby (the writer feeding the primary)",
                                reader, feed, routes, scripts));
                    }
                }
            }
        }
        report.append(String.format("%nLoad average at the end: %s%n", Files.readString(Path.of("/proc/loadavg")).trim()));
        System.out.println(report);
        Files.writeString(work.resolve("report.md"), report);
    }

    /** Lines of the log up to and including the block that brings the chain to {@link #TRANSACTIONS}. */
    private static int replayedPart(List<String> lines) throws IOException {
        long transactions = 0;
        for (int i = 0; i < lines.size(); i++) {
            String[] columns = lines.get(i).split("\t", 4);
            if (columns[2].equals("/new_block")) {
                transactions += JSON.readTree(columns[3]).path("transactions").size();
                if (transactions >= TRANSACTIONS) {
                    return i + 1;
                }
            }
        }
        throw new IllegalStateException("the log holds fewer than " + TRANSACTIONS + " transactions");
    }

    /** Every route at every pace on one server: the first pass, then pace by pace, route by route. */
    private static String measure(String title, Server server, LiveFeed feed, Map<String, List<String>> routes,
                                  Map<String, Path> scripts) throws Exception {
        // The first pass runs with the busy feed on: a writer that has been ingesting has its ingest path
        // compiled; without this the JIT compiled it during the busy pace's first routes (12-28 % of the
        // server's CPU then, in a profile of 2026-12-03), and those routes read half their idle rate.
        System.out.printf("%s: %s, first pass over the routes, busy feed on%n", Instant.now(), title);
        feed.start(LiveFeed.Pace.BUSY);
        try {
            for (Path script : scripts.values()) {
                wrk(server, script, FIRST_PASS);
            }
        } finally {
            System.out.printf("%s, first pass: feed %s%n", title, feed.stop());
        }
        Map<String, Map<LiveFeed.Pace, Run>> runs = new LinkedHashMap<>();
        List<LiveFeed.Delivered> feeds = new ArrayList<>();
        for (LiveFeed.Pace pace : PACES) {
            feed.start(pace);
            try {
                for (Map.Entry<String, Path> route : scripts.entrySet()) {
                    wrk(server, route.getValue(), WARM_UP);
                    double[] cacheBefore = server.cacheCounts();
                    double cpuBefore = ProcessCpu.process(server.process.pid());
                    Map<Long, Double> pgBefore = ProcessCpu.byProcess("postgres");
                    String out = wrk(server, route.getValue(), SECONDS);
                    double cpu = ProcessCpu.process(server.process.pid()) - cpuBefore;
                    double pgCpu = ProcessCpu.spentBetween(pgBefore, ProcessCpu.byProcess("postgres"));
                    double[] cacheAfter = server.cacheCounts();
                    ThroughputBenchmark.Result figures = ThroughputBenchmark.wrkFigures(out);
                    if (figures == null) {
                        throw new IllegalStateException("wrk on " + route.getKey() + ":\n" + out);
                    }
                    Run run = new Run(figures.rps(), figures.p99(), 1e6 * cpu / (figures.rps() * SECONDS),
                            1e6 * pgCpu / (figures.rps() * SECONDS), hitRate(cacheBefore, cacheAfter), non2xx(out), transferPerSecond(out) / figures.rps());
                    runs.computeIfAbsent(route.getKey(), k -> new LinkedHashMap<>()).put(pace, run);
                    System.out.printf("%s: %s, %s, %s: %s%n", Instant.now(), title, pace, route.getKey(), run);
                }
            } finally {
                LiveFeed.Delivered delivered = feed.stop();
                feeds.add(delivered);
                System.out.printf("%s, feed %s; tip %d%n", title, delivered, server.tip());
            }
        }
        return table(title, runs, routes, feeds);
    }

    private static String table(String title, Map<String, Map<LiveFeed.Pace, Run>> runs,
                                Map<String, List<String>> routes, List<LiveFeed.Delivered> feeds) {
        String paces = String.join(" / ", PACES.stream().map(p -> p.name().toLowerCase()).toList());
        LiveFeed.Pace live = PACES.contains(LiveFeed.Pace.BUSY) ? LiveFeed.Pace.BUSY : PACES.get(PACES.size() - 1);
        String liveName = live.name().toLowerCase();
        StringBuilder out = new StringBuilder(String.format("%n### %s%n%n", title));
        out.append(String.format("| route | lines | KB/answer | req/s %s | %s ÷ idle | p99 ms %s | CPU µs/req %s | PostgreSQL CPU µs/req %s | cache hits %s"
                + " | peer req/s | %s ÷ peer | targets (%s: ≥ %.1f of idle, ≥ %.0f× peer, p99 ≤ peer's) |%n",
                paces, liveName, paces, paces, paces, paces, liveName, liveName, OF_IDLE, OF_PEER));
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Map.Entry<String, Map<LiveFeed.Pace, Run>> route : runs.entrySet()) {
            Map<LiveFeed.Pace, Run> byPace = route.getValue();
            Run idle = byPace.get(LiveFeed.Pace.IDLE);
            Run busy = byPace.get(live);
            Double peer = PEER_RPS.get(route.getKey());
            Double peerP99 = PEER_P99.get(route.getKey());
            double ofIdle = idle == null || busy == null ? Double.NaN : busy.rps() / idle.rps();
            double ofPeer = peer == null || busy == null ? Double.NaN : busy.rps() / peer;
            String targets = String.join("; ",
                    verdict("idle", ofIdle, ofIdle >= OF_IDLE),
                    verdict("peer", ofPeer, ofPeer >= OF_PEER),
                    peerP99 == null || busy == null ? "p99 n/a"
                            : String.format("p99 %.1f vs %.0f ms %s", busy.p99(), peerP99, busy.p99() <= peerP99 ? "yes" : "NO"));
            double bytes = byPace.values().stream().mapToDouble(Run::answerBytes).filter(b -> !Double.isNaN(b))
                    .average().orElse(Double.NaN);
            out.append(String.format("| %s | %,d | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", route.getKey(),
                    new LinkedHashSet<>(routes.get(route.getKey())).size(), bytes / 1024,
                    cells(byPace, r -> String.format("%,.0f", r.rps())),
                    Double.isNaN(ofIdle) ? "–" : String.format("%.2f", ofIdle),
                    cells(byPace, r -> String.format("%.1f", r.p99())),
                    cells(byPace, r -> String.format("%,.0f", r.cpuMicros())),
                    cells(byPace, r -> String.format("%,.0f", r.pgCpuMicros())),
                    cells(byPace, r -> Double.isNaN(r.hitRate()) ? "n/a" : String.format("%.0f %%", 100 * r.hitRate())),
                    peer == null ? "–" : String.format("%,.0f", peer),
                    Double.isNaN(ofPeer) ? "–" : String.format("%.1f×", ofPeer), targets));
        }
        List<String> errors = new ArrayList<>();
        runs.forEach((route, byPace) -> byPace.forEach((pace, run) -> {
            if (run.non2xx() > 0) {
                errors.add(route + " " + pace.name().toLowerCase() + ": " + run.non2xx());
            }
        }));
        out.append(String.format("%nAnswers other than 2xx/3xx: %s.%n", errors.isEmpty() ? "none" : String.join(", ", errors)));
        out.append("Live feed (one pace spans every route's warm-up and measurement): ");
        out.append(String.join("; ", feeds.stream().filter(f -> f.pace() != LiveFeed.Pace.IDLE).map(Object::toString).toList()));
        out.append(".\nKB/answer: wrk's bytes read per request (headers included), over the paces; the lines of a route"
                + " times it is what keeping all of its answers takes.\n");
        out.append("Peer: today's peer (v9.0.2) on PostgreSQL 15, a 20,000-transaction generated chain, wrk -t2 -c16,"
                + " one request line per route (issue 48), not rerun here; its p99 is known for /extended only.\n");
        return out.toString();
    }

    private static String cells(Map<LiveFeed.Pace, Run> byPace, java.util.function.Function<Run, String> cell) {
        return String.join(" / ", PACES.stream().map(p -> byPace.containsKey(p) ? cell.apply(byPace.get(p)) : "–").toList());
    }

    private static String verdict(String what, double ratio, boolean met) {
        return Double.isNaN(ratio) ? what + " n/a" : what + " " + (met ? "yes" : "NO");
    }

    private static double hitRate(double[] before, double[] after) {
        if (before == null || after == null) {
            return Double.NaN;
        }
        double hits = after[0] - before[0];
        double misses = after[1] - before[1];
        return hits + misses == 0 ? Double.NaN : hits / (hits + misses);
    }

    private static final Pattern TRANSFER = Pattern.compile("Transfer/sec:\\s+([0-9.]+)(B|KB|MB|GB)");

    /** wrk's bytes read per second (headers and bodies), NaN when it printed none. */
    private static double transferPerSecond(String wrkOutput) {
        Matcher m = TRANSFER.matcher(wrkOutput);
        if (!m.find()) {
            return Double.NaN;
        }
        int power = List.of("B", "KB", "MB", "GB").indexOf(m.group(2));
        return Double.parseDouble(m.group(1)) * Math.pow(1024, power);
    }

    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    private static long non2xx(String wrkOutput) {
        Matcher m = NON_2XX.matcher(wrkOutput);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static String wrk(Server server, Path script, int seconds) throws Exception {
        Process p = new ProcessBuilder("wrk", "-t" + THREADS, "-c" + CONNECTIONS, "-d" + seconds + "s", "--latency",
                "-s", script.toString(), server.base).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException("wrk exited " + p.exitValue() + ":\n" + out);
        }
        return out;
    }

    /** What was replayed: canonical blocks and transactions, the replay's time, the payloads kept for the feed. */
    private static String describeChain(Map<String, String> pg, double replaySeconds, int livePayloads) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.get("PG_HOST") + ":" + pg.get("PG_PORT")
                + "/" + pg.get("PG_DATABASE"), pg.get("PG_USER"), pg.get("PG_PASSWORD"));
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT (SELECT count(*) FROM blocks WHERE canonical),"
                     + " (SELECT count(*) FROM txs WHERE canonical AND microblock_canonical)")) {
            rs.next();
            return String.format("generated mixed-era chain (seed %d): %,d blocks and %,d transactions replayed in %.0f s,"
                    + " then %,d payloads (of %,d more transactions) kept for the live feed", SEED, rs.getLong(1),
                    rs.getLong(2), replaySeconds, livePayloads, LIVE_TRANSACTIONS);
        }
    }

    /** The server jar with {@code args} (a command such as replay), to its end. */
    private static void run(Path jar, List<String> jvm, List<String> args, Map<String, String> pg, Path log)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(jvm);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(k -> k.startsWith("PG_") || k.startsWith("H2_"));
        builder.environment().putAll(pg);
        builder.environment().put("DEMO_DATA", "false");
        builder.environment().put("STACKS_API_METRICS_ENABLED", "false");
        Process p = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(args + " exited " + p.exitValue() + "; log " + log);
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A server process: API on a port of its own, observer unless readonly, metrics on a port of its own. */
    private static final class Server implements AutoCloseable {

        private static final Pattern CACHE = Pattern.compile("^stacks_answer_cache_total\\{.*result=\"(hit|miss)\".*} (\\S+)$");

        final Process process;
        final String base;
        final int observerPort;
        final int metricsPort;
        final Path log;
        private final HttpClient http = HttpClient.newHttpClient();

        private Server(Process process, String base, int observerPort, int metricsPort, Path log) {
            this.process = process;
            this.base = base;
            this.observerPort = observerPort;
            this.metricsPort = metricsPort;
            this.log = log;
        }

        static Server start(String name, Path jar, Map<String, String> pg, boolean readonly, Path work) throws IOException {
            int api = freePort();
            int observer = freePort();
            int metrics = freePort();
            List<String> command = new ArrayList<>(List.of(java()));
            command.addAll(List.of(JVM_ARGS.trim().split("\\s+")));
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
            return new Server(builder.start(), "http://127.0.0.1:" + api, observer, metrics, log);
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
            double[] counts = new double[2];
            boolean found = false;
            for (String line : metrics.split("\n")) {
                Matcher m = CACHE.matcher(line);
                if (m.matches()) {
                    counts[m.group(1).equals("hit") ? 0 : 1] += Double.parseDouble(m.group(2));
                    found = true;
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
}
