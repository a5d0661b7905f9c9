package io.stacksexplorer.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link LiveReadBenchmark}'s table for one server: per route, every figure as the median of the
 * rounds per pace, the live pace's rate over idle as the median of the rounds' own ratios (each round
 * measures a route idle and live within minutes of each other, so the ratio of one round shares its
 * machine's hour) with their range, and the targets of issue 48 against the peer's figures.
 */
final class LiveReadTable {

    /** Under the live pace, at least this share of the route's idle rate. */
    static final double OF_IDLE = 0.7;
    /** Under the live pace, at least this many times the peer's req/s. */
    static final double OF_PEER = 10;

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
     * One measured reading of a route at a pace: wrk's figures, the server's CPU per request, PostgreSQL's
     * (every {@code postgres} process of the machine: the clusters' backends, WAL sender and receiver, and
     * the startup process that replays WAL on a standby), the cache's hit rate (NaN: no metric), and of
     * the offset pages that reached their route, the share answered from kept parts (web.KeptPages; NaN:
     * none reached it, or a build without them).
     */
    record Run(double rps, double p99, double cpuMicros, double pgCpuMicros, double hitRate, double pageHitRate,
               long non2xx, double answerBytes) {
    }

    private LiveReadTable() {
    }

    /**
     * The table: {@code runs} holds per route and pace the readings of every round, in round order
     * (a round that did not measure a pace has no reading for it).
     */
    static String table(String title, List<LiveFeed.Pace> paces, int rounds, Map<String, Map<LiveFeed.Pace, List<Run>>> runs,
                        Map<String, List<String>> routes, List<LiveFeed.Delivered> feeds) {
        String paceNames = String.join(" / ", paces.stream().map(p -> p.name().toLowerCase()).toList());
        LiveFeed.Pace live = paces.contains(LiveFeed.Pace.BUSY) ? LiveFeed.Pace.BUSY : paces.get(paces.size() - 1);
        String liveName = live.name().toLowerCase();
        StringBuilder out = new StringBuilder(String.format("%n### %s%n%nMedians of %d round%s per route and pace.%n%n",
                title, rounds, rounds == 1 ? "" : "s"));
        out.append(String.format("| route | lines | KB/answer | req/s %s | %s ÷ idle, median (range) | p99 ms %s"
                        + " | CPU µs/req %s | PostgreSQL CPU µs/req %s | cache hits %s | offset pages from kept parts %s"
                        + " | peer req/s | %s ÷ peer | targets (%s: ≥ %.1f of idle, ≥ %.0f× peer, p99 ≤ peer's) |%n",
                paceNames, liveName, paceNames, paceNames, paceNames, paceNames, paceNames, liveName, liveName, OF_IDLE,
                OF_PEER));
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Map.Entry<String, Map<LiveFeed.Pace, List<Run>>> route : runs.entrySet()) {
            Map<LiveFeed.Pace, List<Run>> byPace = route.getValue();
            List<Run> idle = byPace.getOrDefault(LiveFeed.Pace.IDLE, List.of());
            List<Run> busy = byPace.getOrDefault(live, List.of());
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < Math.min(idle.size(), busy.size()); i++) {
                ratios.add(busy.get(i).rps() / idle.get(i).rps());
            }
            double ofIdle = Medians.median(ratios);
            double busyRps = median(busy, Run::rps);
            double busyP99 = median(busy, Run::p99);
            Double peer = PEER_RPS.get(route.getKey());
            Double peerP99 = PEER_P99.get(route.getKey());
            double ofPeer = peer == null ? Double.NaN : busyRps / peer;
            String targets = String.join("; ",
                    verdict("idle", ofIdle, ofIdle >= OF_IDLE),
                    verdict("peer", ofPeer, ofPeer >= OF_PEER),
                    peerP99 == null || busy.isEmpty() ? "p99 n/a"
                            : String.format("p99 %.1f vs %.0f ms %s", busyP99, peerP99, busyP99 <= peerP99 ? "yes" : "NO"));
            double bytes = byPace.values().stream().flatMap(List::stream).mapToDouble(Run::answerBytes)
                    .filter(b -> !Double.isNaN(b)).average().orElse(Double.NaN);
            out.append(String.format("| %s | %,d | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", route.getKey(),
                    new LinkedHashSet<>(routes.get(route.getKey())).size(), bytes / 1024,
                    cells(paces, byPace, Run::rps, "%,.0f"),
                    ratios.isEmpty() ? "–" : String.format("%.2f (%.2f-%.2f)", ofIdle,
                            ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                            ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow()),
                    cells(paces, byPace, Run::p99, "%.1f"),
                    cells(paces, byPace, Run::cpuMicros, "%,.0f"),
                    cells(paces, byPace, Run::pgCpuMicros, "%,.0f"),
                    cells(paces, byPace, r -> 100 * r.hitRate(), "%.0f %%"),
                    cells(paces, byPace, r -> 100 * r.pageHitRate(), "%.0f %%"),
                    peer == null ? "–" : String.format("%,.0f", peer),
                    Double.isNaN(ofPeer) ? "–" : String.format("%.1f×", ofPeer), targets));
        }
        List<String> errors = new ArrayList<>();
        runs.forEach((route, byPace) -> byPace.forEach((pace, readings) -> {
            long non2xx = readings.stream().mapToLong(Run::non2xx).sum();
            if (non2xx > 0) {
                errors.add(route + " " + pace.name().toLowerCase() + ": " + non2xx);
            }
        }));
        out.append(String.format("%nAnswers other than 2xx/3xx: %s.%n", errors.isEmpty() ? "none" : String.join(", ", errors)));
        out.append("Live feed (one pace of a round spans every route's warm-up and measurement): ");
        out.append(String.join("; ", feeds.stream().filter(f -> f.pace() != LiveFeed.Pace.IDLE).map(Object::toString).toList()));
        out.append(".\nKB/answer: wrk's bytes read per request (headers included), over the paces; the lines of a route"
                + " times it is what keeping all of its answers takes.\n");
        out.append("Peer: today's peer (v9.0.2) on PostgreSQL 15, a 20,000-transaction generated chain, wrk -t2 -c16,"
                + " one request line per route (issue 48), not rerun here; its p99 is known for /extended only.\n");
        return out.toString();
    }

    /** The median of a figure over the readings, NaN for none (or for a figure that is NaN in all: no metric). */
    static double median(List<Run> readings, Function<Run, Double> figure) {
        return Medians.median(readings.stream().map(figure).filter(v -> !Double.isNaN(v)).toList());
    }

    private static String cells(List<LiveFeed.Pace> paces, Map<LiveFeed.Pace, List<Run>> byPace,
                                Function<Run, Double> figure, String format) {
        return String.join(" / ", paces.stream().map(p -> {
            double value = median(byPace.getOrDefault(p, List.of()), figure);
            return Double.isNaN(value) ? "–" : String.format(format, value);
        }).toList());
    }

    private static String verdict(String what, double ratio, boolean met) {
        return Double.isNaN(ratio) ? what + " n/a" : what + " " + (met ? "yes" : "NO");
    }
}
