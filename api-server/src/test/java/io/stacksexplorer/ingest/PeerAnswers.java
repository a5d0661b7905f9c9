package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.ingest.IngestServer.Answer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Compares the peer's recorded answers with ours: every field of a peer 200 body must be in ours
 * with the same value (we may add fields). Non-200 answers: the status must match (the bodies are
 * deliberately different: ours are problem details).
 *
 * <p>Deliberate differences (see shared/data/peer-answers/README.md and the lead's brief):
 * <ul>
 *   <li>{@code server_version}: ours names our server.</li>
 *   <li>Answers with {@code request_headers} (If-None-Match): ETag values are ours to choose, so the
 *       exchange is replayed with ours — the peer's 304 must be our 304 for our current tag, the peer's
 *       200 for a stale tag must be our 200 (and its body is compared like any other). Where the peer
 *       sends an ETag on a 200, ours must too.</li>
 *   <li>A lookup where no id is found: the peer answers 200 with {@code {found:false, result:{tx_id}}},
 *       ours 404 (our spec); a partial miss is {@code {"found": false}} at ours, so {@code result} under
 *       a miss is not compared.</li>
 *   <li>{@code block_time}/{@code block_time_iso} of an unanchored (microblock) transaction: the peer
 *       serves its own wall clock at the time it replayed the log (2026-11-22 in these answers); ours is
 *       the recorded receipt time of the microblock.</li>
 *   <li>{@code total} of a page past the end: the peer computes it with COUNT(*) OVER() and so answers 0
 *       when the page is empty (PEER.md); ours is the real total.</li>
 *   <li>{@code tx_status} of a transaction a reorg returned to the mempool (no block): the mid-2024
 *       peer answers the status it was mined with ({@code success}, contradicting the missing block);
 *       today's peer and ours answer {@code pending} (PEER.md), later {@code dropped_stale_garbage_collect}.</li>
 * </ul>
 *
 * <p>Each log is replayed once, with the chain id the peer ran it with (mocknet: testnet). Addresses
 * and contracts of the other network are compared like any others: the mocknet run carries mainnet
 * ones, and both servers answer them with their data (an empty page when there is none).
 *
 * <p>Fidelity is also counted per log as leaf values: every scalar of a peer 200 body (an empty
 * array or object counts as one, a deliberate difference as equal) and every non-200 status, and
 * how many of them ours matches; printed with the result.
 *
 * <p>Known, not deliberate differences go to {@link #KNOWN} (reported, not failed); there are none now.
 */
final class PeerAnswers {

    /** Peer answers we still differ from for reasons outside ingestion (file → reason). */
    static final Map<String, String> KNOWN = Map.of();

    static final class Result {
        final List<String> known = new ArrayList<>();
        int matched;
        int statusMatched;
        int etagChecked;
        int skippedNetwork;
        int deliberate;
        /** Leaf values of the peer's answers (a status counts as one), and how many of them ours match. */
        final Map<String, int[]> leaves = new java.util.TreeMap<>();
        final List<String> failures = new ArrayList<>();
        /** Leaf values of the deliberately different answers, and how many of them ours match all the same. */
        final int[] deliberateLeaves = new int[2];
        /** The answers that differ deliberately, each with its reason. */
        final List<String> explained = new ArrayList<>();

        void add(Result other) {
            other.leaves.forEach((log, n) -> {
                int[] mine = leaves.computeIfAbsent(log, k -> new int[2]);
                mine[0] += n[0];
                mine[1] += n[1];
            });
            matched += other.matched;
            statusMatched += other.statusMatched;
            etagChecked += other.etagChecked;
            skippedNetwork += other.skippedNetwork;
            deliberate += other.deliberate;
            failures.addAll(other.failures);
            known.addAll(other.known);
            explained.addAll(other.explained);
            deliberateLeaves[0] += other.deliberateLeaves[0];
            deliberateLeaves[1] += other.deliberateLeaves[1];
        }

        @Override
        public String toString() {
            return matched + " 200 answers matched, " + statusMatched + " error statuses matched, " + deliberate
                    + " deliberate differences, " + etagChecked + " conditional requests checked, " + failures.size()
                    + " differing, " + known.size() + " known differences outside ingestion " + known
                    + "; leaf fidelity " + fidelity();
        }

        String fidelity() {
            StringBuilder out = new StringBuilder();
            leaves.forEach((log, n) -> out.append(String.format(java.util.Locale.ROOT, "%s %d/%d = %.1f%% ", log, n[1],
                    n[0], 100.0 * n[1] / n[0])));
            return out.toString().trim();
        }
    }

    private PeerAnswers() {
    }

    static List<Path> folders(Path root) throws IOException {
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(Files::isDirectory).sorted().toList();
        }
    }

    /** The chain id each log was replayed with at the peer (mocknet: testnet, carrying mainnet addresses too). */
    static String chainId(String log) {
        return log.equals("mocknet") ? "0x80000000" : "0x00000001";
    }

    /**
     * How one folder's answers are read: the files whose difference is a deliberate one, each with
     * its reason (compared and counted, reported, not failed), and a normalisation applied to both
     * bodies of a request before they are compared (for orders that are not reproducible).
     */
    record Rules(Map<String, String> deliberate, Map<String, String> known, Normaliser normalise) {
        static final Rules NONE = new Rules(Map.of(), Map.of(), (request, body, ours) -> body);
    }

    /** Rewrites one side's body of a request before the comparison ({@code ours}: which side). */
    @FunctionalInterface
    interface Normaliser {
        JsonNode apply(String request, JsonNode body, boolean ours);
    }

    static Result compare(IngestServer server, Path dir) throws IOException {
        return compare(server, dir, Rules.NONE);
    }

    static Result compare(IngestServer server, Path dir, Rules rules) throws IOException {
        Result result = new Result();
        String log = dir.getFileName().toString();
        int[] leaves = result.leaves.computeIfAbsent(log, k -> new int[2]);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches("[0-9]+\\.json"))
                    .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().replace(".json", ""))))
                    .toList();
        }
        for (Path file : files) {
            JsonNode recorded = IngestServer.JSON.readTree(file.toFile());
            String request = recorded.get("request").asText();
            String where = log + "/" + file.getFileName() + " " + request;
            int status = recorded.get("status").asInt();
            if (recorded.has("request_headers")) {
                // ETag values are each server's own: replay the peer's exchange with ours. A 304 at the
                // peer (the client held the current tag) must be a 304 here with our current tag; a 200
                // (the client held a stale tag) must be a 200 here with the peer's stale tag.
                String ourTag = server.get(request).headers().firstValue("ETag").orElse(null);
                String sent = status == 304 ? ourTag
                        : recorded.at("/request_headers/If-None-Match").asText();
                Answer conditional = sent == null ? null : server.get(request, Map.of("If-None-Match", sent));
                leaves[0]++;
                if (conditional != null && conditional.status() == status) {
                    result.etagChecked++;
                    leaves[1]++;
                } else {
                    result.failures.add(where + ": conditional request answered "
                            + (conditional == null ? "no ETag" : conditional.status()) + ", peer " + status);
                }
                if (status != 200 || conditional == null || conditional.status() != 200) {
                    continue;
                }
            }
            Answer ours = server.get(request);
            if (status == 200 && recorded.at("/headers/etag").isTextual() && ours.status() == 200
                    && ours.headers().firstValue("ETag").isEmpty()) {
                result.failures.add(where + ": the peer sends an ETag, we do not");
            }
            String key = log + "/" + file.getFileName();
            if (KNOWN.containsKey(key) && !(ours.status() == 200 && status == 200
                    && subsetDiffs(recorded.get("body"), ours.body()).isEmpty())) {
                result.known.add(key + " (" + KNOWN.get(key) + ")");
                continue;
            }
            if (status != 200) {
                leaves[0]++;
                String why = rules.deliberate().get(file.getFileName().toString());
                if (why != null && ours.status() != status) {
                    result.deliberate++;
                    leaves[1]++;
                    result.explained.add(file.getFileName() + " " + request + ": status " + ours.status()
                            + ", peer " + status + ": " + why);
                    continue;
                }
                if (ours.status() == status) {
                    result.statusMatched++;
                    leaves[1]++;
                } else {
                    result.failures.add(where + ": status " + ours.status() + ", peer " + status);
                }
                continue;
            }
            JsonNode theirs = recorded.get("body");
            String reason = rules.deliberate().get(file.getFileName().toString());
            if (reason != null) {
                int n = leafCount(theirs);
                int same = ours.status() == 200 ? subset(rules.normalise().apply(request, theirs, false),
                        rules.normalise().apply(request, ours.body(), true), "", new ArrayList<>(), false)[1] : 0;
                leaves[0] += n;
                leaves[1] += n;
                result.deliberateLeaves[0] += n;
                result.deliberateLeaves[1] += Math.min(same, n);
                result.deliberate++;
                result.explained.add(file.getFileName() + " " + request + ": " + reason);
                continue;
            }
            if (request.startsWith("/extended/v1/tx/multiple") && ours.status() == 404 && allMisses(theirs)) {
                result.deliberate++;
                int n = leafCount(theirs);
                leaves[0] += n;
                leaves[1] += n;
                continue;
            }
            if (ours.status() != 200) {
                result.failures.add(where + ": status " + ours.status() + " " + ours.raw());
                leaves[0] += leafCount(theirs);
                continue;
            }
            List<String> diffs = new ArrayList<>();
            int[] compared = subset(rules.normalise().apply(request, theirs, false), rules.normalise().apply(request,
                    ours.body(), true), "", diffs, false);
            leaves[0] += compared[0];
            leaves[1] += compared[1];
            if (diffs.isEmpty()) {
                result.matched++;
            } else if (rules.known().containsKey(file.getFileName().toString())) {
                result.known.add(key + " (" + rules.known().get(file.getFileName().toString()) + "): " + diffs);
            } else {
                result.failures.add(where + ":\n    " + String.join("\n    ", diffs.subList(0, Math.min(8, diffs.size())))
                        + (diffs.size() > 8 ? "\n    … " + (diffs.size() - 8) + " more" : ""));
            }
        }
        return result;
    }

    private static List<String> subsetDiffs(JsonNode theirs, JsonNode ours) {
        List<String> diffs = new ArrayList<>();
        subset(theirs, ours, "", diffs, false);
        return diffs;
    }

    private static boolean allMisses(JsonNode body) {
        for (JsonNode entry : body) {
            if (entry.path("found").asBoolean()) {
                return false;
            }
        }
        return true;
    }

    /** Scalar values in a JSON tree (an empty array or object counts as one value). */
    static int leafCount(JsonNode node) {
        if (node == null || !node.isContainerNode()) {
            return 1;
        }
        if (node.isEmpty()) {
            return 1;
        }
        int n = 0;
        for (JsonNode child : node) {
            n += leafCount(child);
        }
        return n;
    }

    /**
     * Adds a line per difference; returns {leaf values of theirs, of which equal in ours}. Values
     * skipped as deliberate differences count as equal.
     */
    private static int[] subset(JsonNode theirs, JsonNode ours, String path, List<String> diffs, boolean unanchored) {
        if (ours == null) {
            diffs.add(path + ": missing (peer " + abbreviate(theirs) + ")");
            return new int[]{leafCount(theirs), 0};
        }
        if (theirs.isObject()) {
            if (!ours.isObject()) {
                diffs.add(path + ": peer object, ours " + abbreviate(ours));
                return new int[]{leafCount(theirs), 0};
            }
            if (theirs.isEmpty()) {
                return new int[]{1, ours.isEmpty() ? 1 : 0};
            }
            int[] n = new int[2];
            boolean isUnanchored = unanchored || theirs.path("is_unanchored").asBoolean(false);
            boolean miss = theirs.has("found") && !theirs.get("found").asBoolean();
            for (Iterator<Map.Entry<String, JsonNode>> it = theirs.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String name = field.getKey();
                boolean deliberate = path.isEmpty() && name.equals("server_version")
                        || name.equals("total") && theirs.path("results").isArray() && theirs.get("results").isEmpty()
                        && theirs.path("offset").asInt() > 0
                        || miss && name.equals("result")
                        || isUnanchored && (name.equals("block_time") || name.equals("block_time_iso"))
                        || name.equals("tx_status") && !theirs.has("block_height") && theirs.has("receipt_time")
                        && field.getValue().asText().equals("success")
                        && ours != null && ours.path("tx_status").asText().equals("pending");
                if (deliberate) {
                    int leaves = leafCount(field.getValue());
                    n[0] += leaves;
                    n[1] += leaves;
                    continue;
                }
                int[] child = subset(field.getValue(), ours.get(name), path + "/" + name, diffs, isUnanchored);
                n[0] += child[0];
                n[1] += child[1];
            }
            return n;
        } else if (theirs.isArray()) {
            if (!ours.isArray() || ours.size() != theirs.size()) {
                diffs.add(path + ": peer array of " + theirs.size() + ", ours " + abbreviate(ours));
                return new int[]{leafCount(theirs), 0};
            }
            if (theirs.isEmpty()) {
                return new int[]{1, 1};
            }
            int[] n = new int[2];
            for (int i = 0; i < theirs.size(); i++) {
                int[] child = subset(theirs.get(i), ours.get(i), path + "/" + i, diffs, unanchored);
                n[0] += child[0];
                n[1] += child[1];
            }
            return n;
        } else if (!sameScalar(theirs, ours)) {
            diffs.add(path + ": peer " + abbreviate(theirs) + ", ours " + abbreviate(ours));
            return new int[]{1, 0};
        }
        return new int[]{1, 1};
    }

    private static boolean sameScalar(JsonNode theirs, JsonNode ours) {
        if (theirs.isNumber() && ours.isNumber()) {
            return theirs.decimalValue().compareTo(ours.decimalValue()) == 0;
        }
        return theirs.equals(ours);
    }

    private static String abbreviate(JsonNode node) {
        String s = String.valueOf(node);
        return s.length() > 160 ? s.substring(0, 160) + "…" : s;
    }
}
