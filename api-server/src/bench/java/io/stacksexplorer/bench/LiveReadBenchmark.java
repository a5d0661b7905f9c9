package io.stacksexplorer.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.ingest.NodeFeeder;
import io.stacksexplorer.ops.PgCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
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
 *     [-Dbench.rounds=3] [-Dbench.paces=idle,quiet,busy] [-Dbench.standby=false] [-Dbench.seconds=5] \
 *     [-Dbench.routes='/extended;block by hash']
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
 * ingest path's too). Every pace and route is measured {@code bench.rounds} times (default 3), round
 * after round, and the table ({@link LiveReadTable}) gives medians: a single 5-s reading on two cores
 * shared by wrk, ingest and the database moved by ±0.4 of idle between runs. The server's CPU counts
 * everything its JVM did meanwhile, the writer's ingest too. The hit rate is read from the server's
 * {@code stacks_answer_cache_total{result=hit|miss}} counter around the measured seconds ("–" on
 * a build without it). Then ({@code bench.standby}, default true) a standby is made with
 * {@code pg_basebackup -R} and a {@code readonly} server on it is measured the same way.
 *
 * <p>Beside each route, the peer's req/s (and p99 where known) as measured for issue 48, and the
 * targets: under the busy feed, at least {@value LiveReadTable#OF_IDLE} of the route's idle rate, at
 * least {@value LiveReadTable#OF_PEER}× the peer's req/s, p99 at most the peer's.
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class LiveReadBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TRANSACTIONS = Long.getLong("bench.transactions", 20_000);
    /** Rounds of every pace and route per server: the table gives each figure's median over them. */
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    /** Enough for the busy pace of every round on both servers (a mixed log's epochs start at shares of the whole log). */
    private static final long LIVE_TRANSACTIONS = Long.getLong("bench.liveTransactions",
            Math.max(5_000, TRANSACTIONS / 4) * Math.max(1, ROUNDS));
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
            Map<String, String> replayEnv = new HashMap<>(pg);
            replayEnv.put("STACKS_API_METRICS_ENABLED", "false");
            double replaySeconds = ReplayRuns.command(jar, List.of("-Xmx1g"), List.of("replay", replayed.toString()),
                    replayEnv, null, work.resolve("replay.log"));
            String chain = describeChain(pg, replaySeconds, live.size());
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

            try (LiveServer writer = LiveServer.start("writer", jar, JVM_ARGS, pg, false, work);
                 LiveFeed feed = new LiveFeed("127.0.0.1", writer.observerPort, live)) {
                if (!NodeFeeder.waitUntilAnswering("127.0.0.1", writer.observerPort, writer.process,
                        TimeUnit.MINUTES.toMillis(3))) {
                    throw new IllegalStateException("the writer's observer did not come up; log " + writer.log);
                }
                writer.awaitTip(0);
                report.append(measure("writer (API and observer, on the primary)", writer, feed, routes, scripts));
                if (STANDBY) {
                    try (PgCluster standby = primary.standby();
                         LiveServer reader = LiveServer.start("reader", jar, JVM_ARGS, standby.env(), true, work)) {
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

    /**
     * Every route at every pace on one server: the first pass, then {@link #ROUNDS} rounds of pace by pace,
     * route by route, each round starting one route later than the one before (so that no route is always
     * the first after a pace starts).
     */
    private static String measure(String title, LiveServer server, LiveFeed feed, Map<String, List<String>> routes,
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
        Map<String, Map<LiveFeed.Pace, List<LiveReadTable.Run>>> runs = new LinkedHashMap<>();
        scripts.keySet().forEach(route -> runs.put(route, new LinkedHashMap<>()));
        List<String> order = new ArrayList<>(scripts.keySet());
        List<LiveFeed.Delivered> feeds = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            for (LiveFeed.Pace pace : PACES) {
                feed.start(pace);
                try {
                    for (String route : order) {
                        LiveReadTable.Run run = measureRoute(server, scripts.get(route));
                        runs.get(route).computeIfAbsent(pace, k -> new ArrayList<>()).add(run);
                        System.out.printf("%s: %s, round %d, %s, %s: %s%n", Instant.now(), title, round, pace, route, run);
                    }
                } finally {
                    LiveFeed.Delivered delivered = feed.stop();
                    feeds.add(delivered);
                    System.out.printf("%s, round %d, feed %s; tip %d%n", title, round, delivered, server.tip());
                }
            }
            order.add(order.remove(0));
        }
        return LiveReadTable.table(title, PACES, ROUNDS, runs, routes, feeds);
    }

    /** One route's warm-up, then its measured seconds. */
    private static LiveReadTable.Run measureRoute(LiveServer server, Path script) throws Exception {
        wrk(server, script, WARM_UP);
        double[] cacheBefore = server.cacheCounts();
        double cpuBefore = ProcessCpu.process(server.process.pid());
        Map<Long, Double> pgBefore = ProcessCpu.byProcess("postgres");
        String out = wrk(server, script, SECONDS);
        double cpu = ProcessCpu.process(server.process.pid()) - cpuBefore;
        double pgCpu = ProcessCpu.spentBetween(pgBefore, ProcessCpu.byProcess("postgres"));
        double[] cacheAfter = server.cacheCounts();
        ThroughputBenchmark.Result figures = ThroughputBenchmark.wrkFigures(out);
        if (figures == null) {
            throw new IllegalStateException("wrk on " + script + ":\n" + out);
        }
        double requests = figures.rps() * SECONDS;
        return new LiveReadTable.Run(figures.rps(), figures.p99(), 1e6 * cpu / requests, 1e6 * pgCpu / requests,
                hitRate(cacheBefore, cacheAfter, 0), hitRate(cacheBefore, cacheAfter, 2), non2xx(out),
                transferPerSecond(out) / figures.rps());
    }

    /** The share of hits of the counter pair at {@code at} of {@link LiveServer#cacheCounts}, NaN for none. */
    private static double hitRate(double[] before, double[] after, int at) {
        if (before == null || after == null) {
            return Double.NaN;
        }
        double hits = after[at] - before[at];
        double misses = after[at + 1] - before[at + 1];
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

    private static String wrk(LiveServer server, Path script, int seconds) throws Exception {
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
}
