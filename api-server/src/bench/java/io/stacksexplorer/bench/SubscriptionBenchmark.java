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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Delivery of subscriptions at a live chain's pace: a server process of its own ({@code -Xmx512m},
 * H2 file, API and observer), N subscribers to {@code block} (WebSocket, then in a second run the
 * event stream), and a generated node log POSTed to the observer with one block every 2 s (the
 * mempool and other payloads in between, at once). For every block and every subscriber: the time
 * from the observer's 200 for that block to the subscriber's receipt (both clocks in this JVM).
 * Afterwards each subscriber's positions are compared with the full stream read back from position
 * 0: every one must have received every block notification, once, in order. The server's CPU
 * (from /proc) and heap (jcmd GC.heap_info, after a full GC) are sampled around the run.
 *
 * <p>{@code bench.databases} (default {@code h2}): {@code h2} and/or {@code postgres} (the test
 * PostgreSQL, a schema of its own per run, with {@code -Dpg.tests=true}); {@code bench.derive}
 * ({@code STACKS_OBSERVER_DERIVE} for PostgreSQL runs; unset: the server's default, after-answer):
 * a block derived after the observer's 200 reaches subscribers that much later.
 *
 * <pre>
 * mvn -B -o verify -pl spec,api-server -Pbenchmarks -Dbenchmark=SubscriptionBenchmark \
 *     [-Dbench.subscribers=1000] [-Dbench.blocks=60] [-Dpg.tests=true -Dbench.databases=h2,postgres]
 * </pre>
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class SubscriptionBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SUBSCRIBERS = Integer.getInteger("bench.subscribers", 1000);
    private static final int BLOCKS = Integer.getInteger("bench.blocks", 60);
    private static final long BLOCK_INTERVAL_MS = Long.getLong("bench.block-interval-ms", 2000);
    private static final long SEED = Long.getLong("bench.seed", 7);
    /** Blocks whose latency is not counted (the server's JIT warms up on them); delivery is still checked. */
    private static final int WARMUP = Integer.getInteger("bench.warmup", 3);
    private static final List<String> DATABASES = List.of(System.getProperty("bench.databases", "h2").split(","));
    private static final String DERIVE = System.getProperty("bench.derive", "");

    private record Run(String database, String transport, int subscribers, int blocks, int txs, long[] latenciesMicros, long late,
                       long lost, long duplicatesOrDisorder, double cpuPercent, String heap, double seconds) {
    }

    @Test
    void subscriptionDelivery() throws Exception {
        Path module = Path.of("").toAbsolutePath();
        Path work = module.resolve("target/bench-subscriptions");
        Files.createDirectories(work);
        // About 55 transactions per block on average (ChainGenerator's sizes): enough for BLOCKS blocks.
        long transactions = BLOCKS * 55L;
        Path log = work.resolve("subscriptions-" + transactions + "-" + SEED + ".tsv");
        if (!Files.exists(log)) {
            int exit = new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions",
                    Long.toString(transactions), "--seed", Long.toString(SEED));
            if (exit != 0) {
                throw new IllegalStateException("generate exited " + exit);
            }
        }
        List<NodeFeeder.Payload> payloads = NodeFeeder.read(log);
        List<Run> runs = new ArrayList<>();
        for (String database : DATABASES) {
            for (String transport : List.of("websocket", "sse")) {
                runs.add(run(module.resolve("target/api-server.jar"), work, database, transport, payloads));
                System.out.println(runs.get(runs.size() - 1));
            }
        }
        System.out.println(table(runs));
    }

    private static Run run(Path jar, Path work, String database, String transport, List<NodeFeeder.Payload> payloads)
            throws Exception {
        int apiPort = freePort();
        int observerPort = freePort();
        ProcessBuilder builder = new ProcessBuilder("java", "-Xmx512m", "-jar", jar.toString());
        builder.environment().keySet().removeIf(name -> name.startsWith("PG_") || name.startsWith("H2_"));
        Map<String, String> postgres = null;
        String schema = "subs" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        switch (database) {
            case "h2" -> builder.environment().put("H2_FILE",
                    work.resolve("h2-" + UUID.randomUUID()).resolve("db").toString());
            case "postgres" -> {
                postgres = TestDatabase.postgresEnvironment(schema);
                builder.environment().putAll(postgres);
                if (!DERIVE.isBlank()) {
                    builder.environment().put("STACKS_OBSERVER_DERIVE", DERIVE);
                }
            }
            default -> throw new IllegalArgumentException("unknown database " + database);
        }
        builder.environment().put("DEMO_DATA", "false");
        builder.environment().put("STACKS_BLOCKCHAIN_API_HOST", "127.0.0.1");
        builder.environment().put("STACKS_BLOCKCHAIN_API_PORT", Integer.toString(apiPort));
        builder.environment().put("STACKS_CORE_EVENT_HOST", "127.0.0.1");
        builder.environment().put("STACKS_CORE_EVENT_PORT", Integer.toString(observerPort));
        builder.environment().put("STACKS_CHAIN_ID", "0x00000001");
        builder.environment().put("STACKS_API_METRICS_ENABLED", "false");
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.to(work.resolve("server-" + database + "-" + transport + ".log").toFile()));
        Process server = builder.start();
        try {
            if (!NodeFeeder.waitUntilAnswering("127.0.0.1", observerPort, server, TimeUnit.MINUTES.toMillis(3))) {
                throw new IllegalStateException("server did not come up");
            }
            String base = "http://127.0.0.1:" + apiPort;
            HttpClient http = HttpClient.newHttpClient();
            long up = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (true) {
                try {
                    if (http.send(HttpRequest.newBuilder(URI.create(base + "/extended")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        break;
                    }
                } catch (IOException e) {
                    if (System.nanoTime() > up) {
                        throw e;
                    }
                }
                Thread.sleep(200);
            }
            // index_block_hash -> nanoTime of the observer's 200, and per subscriber what arrived.
            Map<String, Long> answered = new ConcurrentHashMap<>();
            // Every block's 200, in posting order: the trigger of a block placed later (after a reorg).
            List<Long> posted = new ArrayList<>();
            List<List<String[]>> received = new ArrayList<>();
            List<Object> connections = new ArrayList<>();
            for (int i = 0; i < SUBSCRIBERS; i++) {
                List<String[]> mine = java.util.Collections.synchronizedList(new ArrayList<>());
                received.add(mine);
                connections.add(transport.equals("websocket") ? webSocket(http, base, mine) : eventStream(http, base, mine));
            }
            // Every subscriber is connected and subscribed before the first block.
            Thread.sleep(5000);
            String heapBefore = heap(server.pid());
            long cpuBefore = cpuTicks(server.pid());
            long start = System.nanoTime();
            int blocks = 0;
            int txs = 0;
            long lastBlock = 0;
            try (NodeFeeder feeder = new NodeFeeder("127.0.0.1", observerPort, NodeFeeder.Connections.KEEP_ALIVE)) {
                for (NodeFeeder.Payload p : payloads) {
                    boolean block = p.path().equals("/new_block");
                    if (block) {
                        if (blocks == BLOCKS) {
                            break;
                        }
                        long wait = lastBlock + TimeUnit.MILLISECONDS.toNanos(BLOCK_INTERVAL_MS) - System.nanoTime();
                        if (lastBlock > 0 && wait > 0) {
                            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                        }
                        lastBlock = System.nanoTime();
                    }
                    int status = feeder.post(p);
                    if (status != 200) {
                        throw new IllegalStateException(p.path() + " answered " + status);
                    }
                    if (block) {
                        JsonNode body = JSON.readTree(p.body());
                        long at = System.nanoTime();
                        posted.add(at);
                        if (blocks >= WARMUP) {
                            answered.put(body.path("index_block_hash").asText(), at);
                        }
                        blocks++;
                        txs += body.path("transactions").size();
                    }
                }
            }
            Thread.sleep(3000);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (cpuTicks(server.pid()) - cpuBefore) / 100.0 / seconds * 100;
            String heapAfter = heap(server.pid());

            // The whole stream, read back: what every subscriber should have.
            List<String> expected = new ArrayList<>();
            List<String[]> all = java.util.Collections.synchronizedList(new ArrayList<>());
            Object reference = webSocketFrom(http, base, all, "0");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int lastSize = -1;
            while (System.nanoTime() < deadline && (all.size() < blocks || all.size() != lastSize)) {
                lastSize = all.size();
                Thread.sleep(2000);
            }
            for (String[] n : List.copyOf(all)) {
                expected.add(n[0]);
            }
            List<Long> latencies = new ArrayList<>();
            long lost = 0;
            long disorder = 0;
            long late = 0;
            for (List<String[]> mine : received) {
                List<String> positions = new ArrayList<>();
                synchronized (mine) {
                    for (String[] n : mine) {
                        positions.add(n[0]);
                        Long at = answered.get(n[1]);
                        long arrived = Long.parseLong(n[2]);
                        if (at != null) {
                            if (arrived - at < 1_000_000_000L) {
                                latencies.add((arrived - at) / 1000);
                            } else {
                                // Stored beside the chain (or before its parent) and placed when a later
                                // block arrived: timed from the 200 of that block, the later block whose
                                // 200 is nearest (the notification may come just before the 200 is read).
                                long trigger = at;
                                for (long t : posted) {
                                    if (t > at && Math.abs(arrived - t) < Math.abs(arrived - trigger)) {
                                        trigger = t;
                                    }
                                }
                                latencies.add((arrived - trigger) / 1000);
                                late++;
                            }
                        }
                    }
                }
                java.util.Set<String> missing = new java.util.HashSet<>(expected);
                positions.forEach(missing::remove);
                lost += missing.size();
                if (missing.isEmpty() && !positions.equals(expected)) {
                    disorder++;
                }
            }
            for (Object c : connections) {
                close(c);
            }
            close(reference);
            long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
            return new Run(database + (postgres == null || DERIVE.isBlank() ? "" : ", " + DERIVE), transport, SUBSCRIBERS, blocks, txs, sorted, late / SUBSCRIBERS, lost, disorder, cpu,
                    heapBefore + " → " + heapAfter, seconds);
        } finally {
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
            if (postgres != null) {
                ObserverBenchmark.dropSchema(postgres, schema);
            }
        }
    }

    private static Object webSocket(HttpClient http, String base, List<String[]> into) {
        return webSocketFrom(http, base, into, null);
    }

    /** Each block notification as {position, index_block_hash, receipt nanoTime}. */
    private static Object webSocketFrom(HttpClient http, String base, List<String[]> into, String after) {
        WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(base.replace("http", "ws") + "/extended/v1/ws"),
                new WebSocket.Listener() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
                        long at = System.nanoTime();
                        text.append(data);
                        if (last) {
                            String m = text.toString();
                            text.setLength(0);
                            if (m.startsWith("{\"jsonrpc\":\"2.0\",\"method\":\"block\"")) {
                                into.add(new String[]{field(POSITION, m), field(INDEX_BLOCK_HASH, m), Long.toString(at)});
                            }
                        }
                        socket.request(1);
                        return null;
                    }
                }).join();
        ws.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":{\"event\":\"block\""
                + (after == null ? "" : ",\"after\":\"" + after + "\"") + "}}", true).join();
        return ws;
    }

    private static Object eventStream(HttpClient http, String base, List<String[]> into) {
        Flow.Subscriber<String> lines = new Flow.Subscriber<>() {
            private String id;
            private String data;

            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            /** Fields in any order until the blank line that ends an event, as EventSource reads them. */
            @Override
            public void onNext(String line) {
                if (line.startsWith("id:")) {
                    id = line.substring(3).trim();
                } else if (line.startsWith("data:")) {
                    data = line;
                } else if (line.isEmpty()) {
                    if (id != null && data != null) {
                        into.add(new String[]{id, field(INDEX_BLOCK_HASH, data), Long.toString(System.nanoTime())});
                    }
                    id = null;
                    data = null;
                }
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onComplete() {
            }
        };
        return http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/extended/v1/stream?event=block")).build(),
                HttpResponse.BodyHandlers.fromLineSubscriber(lines));
    }

    private static void close(Object connection) {
        if (connection instanceof WebSocket ws) {
            ws.abort();
        } else if (connection instanceof CompletableFuture<?> f) {
            f.cancel(true);
        }
    }

    private static final Pattern POSITION = Pattern.compile("\"position\":\"([^\"]+)\"");
    private static final Pattern INDEX_BLOCK_HASH = Pattern.compile("\"index_block_hash\":\"([^\"]+)\"");

    private static String field(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : "";
    }

    /** utime + stime of a process, in clock ticks (1/100 s). */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** Heap in use after a full GC, and the process's resident size. */
    private static String heap(long pid) throws Exception {
        run("jcmd", Long.toString(pid), "GC.run");
        String info = run("jcmd", Long.toString(pid), "GC.heap_info");
        Matcher m = Pattern.compile("used (\\d+)K").matcher(info);
        String used = m.find() ? (Long.parseLong(m.group(1)) / 1024) + " MB" : "?";
        String rss = Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                .filter(l -> l.startsWith("VmRSS")).map(l -> l.replaceAll("\\D+", "")).findFirst().map(k -> (Long.parseLong(k) / 1024) + " MB RSS").orElse("");
        return used + " (" + rss + ")";
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    private static String table(List<Run> runs) {
        StringBuilder out = new StringBuilder(String.format("%nSubscription benchmark, %s, %d cores: one block every %d ms"
                + " (generated log, seed %d; latency of the first %d blocks not counted)%n%n", Instant.now(),
                Runtime.getRuntime().availableProcessors(), BLOCK_INTERVAL_MS, SEED, WARMUP));
        out.append("| database | transport | subscribers | blocks (tx) | deliveries | latency p50 / p99 / max (ms) | blocks placed by a"
                + " later block | lost | out of order | server CPU | server heap after GC, before → after |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Run r : runs) {
            long[] l = r.latenciesMicros();
            out.append(String.format("| %s | %s | %,d | %d (%,d) | %,d | %.1f / %.1f / %.1f | %d | %d | %d | %.0f %% | %s |%n",
                    r.database(), r.transport(), r.subscribers(), r.blocks(), r.txs(), l.length, pct(l, 50), pct(l, 99),
                    l.length == 0 ? 0 : l[l.length - 1] / 1000.0, r.late(), r.lost(), r.duplicatesOrDisorder(),
                    r.cpuPercent(), r.heap()));
        }
        return out.toString();
    }

    private static double pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(i, sorted.length - 1))] / 1000.0;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
