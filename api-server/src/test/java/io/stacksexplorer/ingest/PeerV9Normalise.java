package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What the gen5k comparison ({@link PeerAnswersV9Contract}) rewrites before it compares, each for a
 * documented reason, and which mempool answers it sets aside as deliberately different:
 * <ul>
 *   <li>our histories without the genesis transaction, which the peer's principal index misses (its
 *       {@code total} is one lower for every principal the genesis transaction touches);</li>
 *   <li>the v2 address page's cursors by presence only: ours are opaque, the peer's are text (spec);
 *       and its contract calls without the ABI's signature, argument names and types: today's peer
 *       leaves them empty on this page alone (its lookups of the same transactions name them);</li>
 *   <li>the v1 address mempool as a set: the peer's order of equal receipt times is not reproducible;</li>
 *   <li>the peer's {@code total} of an empty v3 mempool page, which it takes from the page (0);</li>
 *   <li>the mempool answers of principals that the peer's mempool bugs touch, or that sponsor a
 *       pending transaction (the peer's v3 mempool route leaves the sponsor out; ours includes it).</li>
 * </ul>
 */
final class PeerV9Normalise implements PeerAnswers.Normaliser {

    private final IngestServer server;
    private final Map<String, Boolean> genesisPrincipals = new HashMap<>();
    private String genesisKey;

    PeerV9Normalise(IngestServer server) {
        this.server = server;
    }

    @Override
    public JsonNode apply(String request, JsonNode body, boolean ours) {
        if (!body.isObject() || !body.path("results").isArray()) {
            return body;
        }
        ObjectNode copy = body.deepCopy();
        if (request.startsWith("/extended/v1/address/")) {
            List<JsonNode> results = new ArrayList<>();
            body.get("results").forEach(results::add);
            results.sort(Comparator.comparing(r -> r.path("tx_id").asText()));
            ArrayNode sorted = copy.putArray("results");
            results.forEach(sorted::add);
            return copy;
        }
        if (request.contains("/mempool/transactions")) {
            if (!ours && body.get("results").isEmpty() && body.path("total").asLong() == 0) {
                copy.remove("total");
            }
            return copy;
        }
        boolean v2 = request.startsWith("/extended/v2/addresses/");
        boolean v3 = request.startsWith("/extended/v3/principals/");
        if (!v2 && !v3) {
            return body;
        }
        if (v2) {
            for (String name : List.of("cursor", "prev_cursor", "next_cursor")) {
                copy.set(name, body.path(name).isNull() ? NullNode.instance : TextNode.valueOf("a cursor"));
            }
            for (JsonNode r : copy.get("results")) {
                JsonNode call = r.at("/tx/contract_call");
                if (call.isObject()) {
                    ((ObjectNode) call).remove("function_signature");
                    for (JsonNode arg : call.path("function_args")) {
                        ((ObjectNode) arg).remove(List.of("name", "type"));
                    }
                }
            }
        }
        if (ours && isGenesisPrincipal(principal(request))) {
            copy.put("total", body.path("total").asLong() - 1);
            ArrayNode kept = copy.putArray("results");
            for (JsonNode r : body.get("results")) {
                if (!(v2 ? r.at("/tx/tx_id") : r.at("/transaction/tx_id")).asText().equals(PeerAnswersV9Contract.GENESIS_TX)) {
                    kept.add(r);
                }
            }
            if (v3 && genesisKey().equals(body.at("/cursor/next").asText())) {
                ((ObjectNode) copy.get("cursor")).putNull("next");
            }
            if (kept.isEmpty()) {
                if (v2) {
                    copy.putNull("cursor");
                    copy.putNull("prev_cursor");
                    copy.putNull("next_cursor");
                } else {
                    ((ObjectNode) copy.get("cursor")).putNull("current").putNull("next").putNull("previous");
                }
            }
        }
        return copy;
    }

    /**
     * The mempool answers (v1 and v3) of principals whose pending list the peer's mempool bugs change
     * (a re-mined or wrongly replaced transaction in the peer's answer or pending here), or that
     * sponsor a pending transaction they did not send, each with the reason.
     */
    Map<String, String> mempoolBugFiles(Path dir) throws IOException {
        Set<String> bugs = new HashSet<>();
        Set<String> sponsors = new HashSet<>();
        Map<String, String> files = new HashMap<>();
        List<Path> all;
        try (Stream<Path> s = Files.list(dir)) {
            all = s.filter(p -> p.getFileName().toString().matches("[0-9]+\\.json")).toList();
        }
        Map<Path, String> mempoolFiles = new HashMap<>();
        for (Path file : all) {
            JsonNode recorded = IngestServer.JSON.readTree(file.toFile());
            String request = recorded.get("request").asText();
            if (!request.contains("/mempool")) {
                continue;
            }
            String principal = principal(request);
            mempoolFiles.put(file, principal);
            String text = recorded.get("body").toString();
            if (PeerAnswersV9Contract.PEER_MEMPOOL_BUGS.stream().anyMatch(text::contains)) {
                bugs.add(principal);
            }
            if (request.startsWith("/extended/v3/") && !sponsors.contains(principal)) {
                JsonNode page = server.get("/extended/v3/principals/" + principal + "/mempool/transactions?limit=50").body();
                for (JsonNode r : page.path("results")) {
                    String ourText = r.toString();
                    if (PeerAnswersV9Contract.PEER_MEMPOOL_BUGS.stream().anyMatch(ourText::contains)) {
                        bugs.add(principal);
                    }
                    if (principal.equals(r.at("/sponsor/address").asText()) && !principal.equals(r.at("/sender/address").asText())) {
                        sponsors.add(principal);
                    }
                }
            }
        }
        mempoolFiles.forEach((file, principal) -> {
            if (bugs.contains(principal)) {
                files.put(file.getFileName().toString(), "its pending list holds a transaction the peer's mempool"
                        + " bugs misplace (re-mined after a reorg yet pending there, or dropped as replaced by fee"
                        + " by a sponsor nonce): README, peer bugs");
            } else if (sponsors.contains(principal)) {
                files.put(file.getFileName().toString(), "it sponsors a pending transaction: involved here (spec),"
                        + " left out by the peer's v3 mempool route");
            }
        });
        return files;
    }

    private boolean isGenesisPrincipal(String principal) {
        return genesisPrincipals.computeIfAbsent(principal, p -> {
            long total = server.get("/extended/v2/addresses/" + p + "/transactions?limit=1").body().path("total").asLong();
            JsonNode oldest = server.get("/extended/v2/addresses/" + p + "/transactions?limit=2&offset="
                    + Math.max(0, total - 2)).body().path("results");
            for (JsonNode r : oldest) {
                if (r.at("/tx/tx_id").asText().equals(PeerAnswersV9Contract.GENESIS_TX)) {
                    return true;
                }
            }
            return false;
        });
    }

    private String genesisKey() {
        if (genesisKey == null) {
            JsonNode tx = server.get("/extended/v1/tx/multiple?tx_id=" + PeerAnswersV9Contract.GENESIS_TX).body()
                    .at("/" + PeerAnswersV9Contract.GENESIS_TX + "/result");
            genesisKey = tx.path("block_height").asLong() + ":" + tx.path("microblock_sequence").asInt() + ":"
                    + tx.path("tx_index").asInt();
        }
        return genesisKey;
    }

    /** The principal a history or mempool request names (the path segment after the route's prefix). */
    static String principal(String request) {
        String path = request.split("\\?")[0];
        String[] parts = path.split("/");
        return parts[4];
    }
}
