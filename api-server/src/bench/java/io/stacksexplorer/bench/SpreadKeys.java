package io.stacksexplorer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.ingest.NodeFeeder;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.TxFacts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * Request lines spread over many keys, per route, read from a replayed database: every canonical
 * block (by height, by hash), canonical transaction ids (2 and 20 per request), deployed contracts
 * (2 per request), contracts with logs and principals with history (first page, and deep pages at
 * offsets near the peer's measured ones on the contracts and principals that have that many), and
 * principals with pending transactions, now or during the live feed ({@link #mempoolPrincipals}). A route's lines go to a file that a wrk script reads, one
 * line picked at random per request ({@link #wrkScript}), so that a kept answer is asked again only
 * as often as its key comes up.
 */
final class SpreadKeys {

    /** Deep pages: offsets from the given one up to this much further, where the history is that long. */
    private static final int OFFSET_SPREAD = 2_000;
    private static final int PAGE = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SpreadKeys() {
    }

    /**
     * Route name (as in {@link LiveReadBenchmark}'s peer figures) to its request lines, at most
     * {@code lines} each (every canonical block for the block routes); a route whose keys the chain
     * does not have (a deep page on a small chain) is left out.
     */
    static Map<String, List<String>> routes(Map<String, String> pgEnv, int lines, long seed,
                                            java.util.Collection<String> mempoolPrincipals) throws SQLException {
        Random random = new Random(seed);
        Map<String, List<String>> routes = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pgEnv.get("PG_HOST") + ":"
                + pgEnv.get("PG_PORT") + "/" + pgEnv.get("PG_DATABASE"), pgEnv.get("PG_USER"), pgEnv.get("PG_PASSWORD"));
             Statement st = c.createStatement()) {
            List<String> heights = column(st, "SELECT block_height FROM blocks WHERE canonical ORDER BY block_height");
            List<String> hashes = column(st, "SELECT block_hash FROM blocks WHERE canonical ORDER BY block_height");
            List<String> txIds = column(st, "SELECT tx_id FROM txs WHERE canonical AND microblock_canonical"
                    + " ORDER BY random() LIMIT " + 10 * lines);
            List<String> contracts = column(st, "SELECT DISTINCT contract_id FROM smart_contracts WHERE canonical");
            Map<String, Long> contractLogs = counts(st, "SELECT contract_id, event_count FROM contract_log_stats"
                    + " WHERE event_count > 0");
            Map<String, Long> principals = counts(st, "SELECT principal, tx_count FROM principal_stats WHERE tx_count > 0"
                    + " ORDER BY random() LIMIT " + 10 * lines);
            Map<String, Long> history = counts(st, "SELECT principal, tx_count FROM principal_stats WHERE tx_count >= 3000");
            List<String> pending = column(st, "SELECT principal FROM mempool_principal_stats WHERE pending_count > 0"
                    + " ORDER BY random() LIMIT " + lines);

            routes.put("/extended", List.of("/extended"));
            routes.put("latest block", List.of("/extended/v2/blocks/latest"));
            routes.put("block by height", prefixed("/extended/v2/blocks/", heights));
            routes.put("block by hash", prefixed("/extended/v2/blocks/", hashes));
            routes.put("tx lookup, 2 ids", draws(random, lines, txIds, 2, "/extended/v1/tx/multiple?tx_id=", "&tx_id="));
            routes.put("tx lookup, 20 ids", draws(random, lines, txIds, 20, "/extended/v1/tx/multiple?tx_id=", "&tx_id="));
            routes.put("contract status, 2 ids", draws(random, lines, contracts, 2,
                    "/extended/v2/smart-contracts/status?contract_id=", "&contract_id="));
            routes.put("contract events, page 1", first(lines, contractLogs.keySet(),
                    id -> "/extended/v1/contract/" + id + "/events"));
            routes.put("contract events, offset 4,500", deep(random, lines, contractLogs, 4_500,
                    (id, offset) -> "/extended/v1/contract/" + id + "/events?offset=" + offset));
            routes.put("address transactions, page 1", first(lines, principals.keySet(),
                    p -> "/extended/v2/addresses/" + p + "/transactions"));
            routes.put("address transactions, offset 3,000", deep(random, lines, history, 3_000,
                    (p, offset) -> "/extended/v2/addresses/" + p + "/transactions?offset=" + offset));
            routes.put("address transactions, offset 6,500", deep(random, lines, history, 6_500,
                    (p, offset) -> "/extended/v2/addresses/" + p + "/transactions?offset=" + offset));
            // Principals with pending transactions now or during the feed first, then others (an empty
            // page), up to the lines wanted.
            LinkedHashSet<String> mempool = new LinkedHashSet<>(pending);
            mempoolPrincipals.stream().limit(Math.max(0, lines - mempool.size())).forEach(mempool::add);
            principals.keySet().stream().limit(Math.max(0, lines - mempool.size())).forEach(mempool::add);
            routes.put("address mempool", first(lines, mempool, p -> "/extended/v1/address/" + p + "/mempool"));
        }
        routes.values().removeIf(List::isEmpty);
        return routes;
    }

    /**
     * The senders, sponsors, recipients and contracts of the transactions that {@code payloads}
     * announce to the mempool: the principals whose mempool page the feed changes. The generator
     * mines most announced transactions within a few blocks, so the replayed database alone holds
     * few principals with pending transactions.
     */
    static Set<String> mempoolPrincipals(List<NodeFeeder.Payload> payloads) throws IOException {
        CodecTxDecoder decoder = new CodecTxDecoder();
        Set<String> principals = new LinkedHashSet<>();
        for (NodeFeeder.Payload payload : payloads) {
            if (payload.path().equals("/new_mempool_tx")) {
                for (JsonNode raw : JSON.readTree(payload.body())) {
                    TxFacts facts = decoder.decode(raw.asText());
                    for (String principal : new String[] {facts.senderAddress(), facts.sponsorAddress(),
                            facts.recipient(), facts.contractId()}) {
                        if (principal != null) {
                            principals.add(principal);
                        }
                    }
                }
            }
        }
        return principals;
    }

    /** How many of a route's lines are distinct, for the report. */
    static String describe(List<String> lines) {
        return String.format("%,d request lines", new LinkedHashSet<>(lines).size());
    }

    /**
     * A wrk script for {@code lines} (written beside it): each wrk thread reads them at start and
     * formats every request once, then picks one at random per request.
     */
    static Path wrkScript(Path dir, String name, List<String> lines) throws IOException {
        String file = name.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "");
        Path paths = dir.resolve("live-" + (file.isEmpty() ? "status" : file) + ".paths");
        Files.write(paths, lines);
        Path script = paths.resolveSibling(paths.getFileName().toString().replace(".paths", ".lua"));
        Files.writeString(script, """
                -- LiveReadBenchmark: one request line of %s at random per request.
                local requests = {}
                local threads = 0
                function setup(thread)
                  threads = threads + 1
                  thread:set("id", threads)
                end
                function init(args)
                  math.randomseed(os.time() + 7919 * id)
                  for line in io.lines("%s") do
                    requests[#requests + 1] = wrk.format("GET", line)
                  end
                end
                function request()
                  return requests[math.random(#requests)]
                end
                """.formatted(paths.getFileName(), paths.toAbsolutePath()));
        return script;
    }

    private static List<String> column(Statement st, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    private static Map<String, Long> counts(Statement st, String sql) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getLong(2));
            }
        }
        return counts;
    }

    private static List<String> prefixed(String prefix, List<String> keys) {
        return keys.stream().map(k -> prefix + k).toList();
    }

    private static List<String> first(int lines, java.util.Collection<String> keys, Function<String, String> line) {
        return keys.stream().limit(lines).map(line).toList();
    }

    /** {@code lines} request lines of {@code per} distinct keys drawn at random. */
    private static List<String> draws(Random random, int lines, List<String> keys, int per, String prefix,
                                      String separator) {
        List<String> out = new ArrayList<>();
        if (keys.size() < per) {
            return out;
        }
        for (int i = 0; i < lines; i++) {
            LinkedHashSet<String> chosen = new LinkedHashSet<>();
            while (chosen.size() < per) {
                chosen.add(keys.get(random.nextInt(keys.size())));
            }
            out.add(prefix + String.join(separator, chosen));
        }
        return out;
    }

    /**
     * Pages at offsets from {@code offset} to {@code offset} + {@link #OFFSET_SPREAD} (within the
     * history), over every key whose history reaches that deep; distinct lines, at most {@code lines}.
     */
    private static List<String> deep(Random random, int lines, Map<String, Long> totals, int offset,
                                     java.util.function.BiFunction<String, Integer, String> line) {
        List<Map.Entry<String, Long>> deepEnough = totals.entrySet().stream()
                .filter(e -> e.getValue() >= offset + PAGE).toList();
        long available = deepEnough.stream().mapToLong(e -> Math.min(OFFSET_SPREAD, e.getValue() - offset - PAGE) + 1).sum();
        LinkedHashSet<String> out = new LinkedHashSet<>();
        while (out.size() < Math.min(lines, available)) {
            Map.Entry<String, Long> key = deepEnough.get(random.nextInt(deepEnough.size()));
            int reach = (int) Math.min(OFFSET_SPREAD, key.getValue() - offset - PAGE);
            out.add(line.apply(key.getKey(), offset + random.nextInt(reach + 1)));
        }
        return new ArrayList<>(out);
    }
}
