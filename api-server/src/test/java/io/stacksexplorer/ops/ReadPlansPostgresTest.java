package io.stacksexplorer.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.micronaut.data.annotation.Query;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.ingest.EventIngestor;
import io.stacksexplorer.ingest.TsvReplay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every statement the read routes send is planned to use an index, even as a generic plan. pgjdbc
 * turns a statement into a server-prepared one after five executions, and PostgreSQL may then keep
 * a generic plan, which does not see the parameter values: a plan that is fine for one contract or
 * address may scan a whole chain table for another, and only at some table sizes (issue 24 found
 * the lookup's event query scanning tx_events under a generic plan).
 *
 * <p>So: a cluster of the test's own replays a generated mixed-era chain of 20,000 transactions and
 * is ANALYZEd (realistic statistics), then runs with {@code plan_cache_mode = force_generic_plan}
 * and {@code auto_explain} logging the plan of every statement; a server on it answers every read
 * route several times with ids from the chain; each logged plan of a read that touches a chain
 * table must not contain a sequential scan of a chain table.
 *
 * <p>The statements are the read side's own: every SQL constant of every store ({@code …Store} in
 * {@code io.stacksexplorer.query}, where ArchitectureTest keeps the read SQL) must be among the
 * explained ones, so a new read statement that no route here sends fails the test instead of
 * escaping it. The change log's reads (subscriptions, {@code ChangeQueries}) are not a route's.
 */
class ReadPlansPostgresTest {

    /** Tables that grow with the chain: a sequential scan of one is a read that degrades with size. */
    private static final List<String> CHAIN_TABLES = List.of("blocks", "txs", "tx_events", "principal_txs",
            "smart_contracts", "mempool_txs", "mempool_principals", "node_events");
    private static final Pattern SEQ_SCAN = Pattern.compile("Seq Scan on (\\w+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyReadStatementUsesAnIndexUnderAGenericPlan(@TempDir Path dir) throws Exception {
        assumeTrue(PgCluster.available(), "needs -Dpg.tests=true and the postgresql server binaries");
        Path log = dir.resolve("chain.tsv");
        assertEquals(0, new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions", "20000",
                "--seed", "5", "--era", "mixed"));
        JsonNode summary = JSON.readTree(dir.resolve("chain.tsv.summary.json").toFile());

        try (PgCluster cluster = PgCluster.primary()) {
            Map<String, Object> props = DatabaseOutagePostgresTest.serverProperties(cluster);
            props.put("stacks.event-observer.enabled", false);
            try (ApiServer writer = ApiServer.start(props)) {
                TsvReplay.Summary replayed = TsvReplay.replay(log, writer.context().getBean(EventIngestor.class), true,
                        n -> { });
                assertEquals(0, replayed.rejected());
            }
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + cluster.port()
                    + "/postgres", "postgres", ""); Statement st = c.createStatement()) {
                st.execute("ANALYZE");
                st.execute("LOAD 'auto_explain'"); // defines its settings, so ALTER SYSTEM accepts them
                st.execute("ALTER SYSTEM SET session_preload_libraries = 'auto_explain'");
                st.execute("ALTER SYSTEM SET auto_explain.log_min_duration = 0");
                st.execute("ALTER SYSTEM SET plan_cache_mode = 'force_generic_plan'");
                st.execute("SELECT pg_reload_conf()");
            }
            long logFrom = Files.size(cluster.logFile());
            int requests;
            try (ApiServer reader = ApiServer.start(props)) {
                requests = everyRoute(reader, summary);
            }
            String logged = new String(Files.readAllBytes(cluster.logFile()), StandardCharsets.UTF_8)
                    .substring((int) logFrom);
            Map<String, String> plans = plansOfReads(logged);
            Map<String, String> statements = storeStatements();
            List<String> unexplained = new ArrayList<>();
            statements.forEach((name, sql) -> {
                Pattern sent = asSent(sql);
                if (plans.keySet().stream().noneMatch(q -> sent.matcher(q.replaceAll("\\s+", " ")).matches())) {
                    unexplained.add(name + ": " + sql);
                }
            });
            // A floor against an enumeration that silently finds nothing (17 statements when the pages' counts joined them).
            assertTrue(statements.size() >= 15, "the stores' statements were found: " + statements.keySet());
            assertEquals(List.of(), unexplained, "store statements that no route sent: " + plans.keySet());
            List<String> scans = new ArrayList<>();
            Map<String, Integer> tablesRead = new TreeMap<>();
            for (Map.Entry<String, String> plan : plans.entrySet()) {
                for (String table : CHAIN_TABLES) {
                    if (plan.getKey().matches("(?s).*\\b" + table + "\\b.*")) {
                        tablesRead.merge(table, 1, Integer::sum);
                    }
                }
                Matcher m = SEQ_SCAN.matcher(plan.getValue());
                while (m.find()) {
                    if (CHAIN_TABLES.contains(m.group(1))) {
                        scans.add(m.group(1) + " in: " + plan.getKey() + "\n" + plan.getValue());
                    }
                }
            }
            System.out.printf("%d requests, %d distinct read statements explained as generic plans (the stores"
                    + " have %d); tables read: %s%n", requests, plans.size(), statements.size(), tablesRead);
            assertTrue(plans.size() >= 10, "the routes' statements were explained: " + plans.keySet());
            // A generic plan keeps the parameters ($1 …) where a custom plan would show the values:
            // every parameterised read of a chain table must show them.
            List<String> custom = new ArrayList<>();
            plans.forEach((query, plan) -> {
                if (query.contains("$1") && CHAIN_TABLES.stream().anyMatch(t -> query.matches("(?s).*\\b" + t + "\\b.*"))
                        && !plan.contains("$1")) {
                    custom.add(query + "\n" + plan);
                }
            });
            assertEquals(List.of(), custom, "plans that are not generic");
            for (String table : List.of("blocks", "txs", "tx_events", "principal_txs", "smart_contracts",
                    "mempool_txs")) {
                assertTrue(tablesRead.containsKey(table), "some explained read uses " + table + ": " + tablesRead);
            }
            assertEquals(List.of(), scans, "reads that scan a whole chain table under a generic plan");
        }
    }

    /** The enumeration the plan check relies on, without a database: statements found, and matched as sent. */
    @Test
    void theStoresStatementsAreFoundAndMatchedAsTheDriverSendsThem() throws Exception {
        Map<String, String> statements = storeStatements();
        for (String store : List.of("AddressStore", "BlockStore", "ContractStore", "MempoolStore", "StatusStore",
                "TransactionStore")) {
            assertTrue(statements.keySet().stream().anyMatch(k -> k.startsWith(store + ".")), store + ": " + statements);
        }
        assertTrue(asSent("SELECT a FROM t WHERE x IN (:ids) AND y = :y AND z = ?")
                .matcher("SELECT a FROM t WHERE x IN ($1, $2,$3) AND y = $4 AND z = $5").matches());
        assertTrue(asSent("SELECT a FROM t WHERE x IN (:ids)").matcher("SELECT a FROM t WHERE x IN ($1)").matches());
        assertTrue(!asSent("SELECT a FROM t WHERE y = ?").matcher("SELECT a FROM t WHERE y = $1 LIMIT 1").matches());
    }

    /** Requests every read route, each six times (past pgjdbc's prepare threshold of five). */
    private static int everyRoute(ApiServer api, JsonNode summary) {
        String hot = summary.get("hot_address").asText();
        String contract = summary.get("hot_contract").asText();
        JsonNode latest = api.get("/extended/v2/blocks/latest").body();
        JsonNode page = api.get("/extended/v2/addresses/" + hot + "/transactions?limit=50").body();
        List<String> txIds = new ArrayList<>();
        page.get("results").forEach(r -> txIds.add(r.path("tx").path("tx_id").asText(r.path("tx_id").asText())));
        assertTrue(txIds.size() >= 20, "ids to look up");
        long total = page.get("total").asLong();
        String cursor = page.path("next_cursor").asText();
        String logCursor = api.get("/extended/v1/contract/" + contract + "/events?limit=20").body()
                .path("next_cursor").asText();
        assertTrue(!logCursor.isEmpty(), "the hot contract has more than a page of events");
        String noSuchTx = "0x" + "0".repeat(64);
        String noSuchContract = contract.substring(0, contract.indexOf('.')) + ".no-such-contract";
        List<String> routes = new ArrayList<>(List.of(
                "/extended",
                "/extended/v1/status",
                "/extended/v2/blocks/latest",
                "/extended/v2/blocks/" + (latest.get("height").asLong() / 2),
                "/extended/v2/blocks/" + latest.get("hash").asText(),
                "/extended/v2/blocks/" + latest.get("index_block_hash").asText(),
                "/extended/v1/tx/multiple?tx_id=" + txIds.get(0) + "&tx_id=" + txIds.get(1),
                "/extended/v1/tx/multiple?tx_id=" + String.join("&tx_id=", txIds.subList(0, 20)),
                "/extended/v1/tx/multiple?tx_id=" + txIds.get(0) + "&tx_id=" + noSuchTx,
                "/extended/v2/smart-contracts/status?contract_id=" + contract,
                "/extended/v2/smart-contracts/status?contract_id=" + noSuchContract,
                "/extended/v1/contract/" + contract + "/events?limit=20",
                "/extended/v1/contract/" + contract + "/events?limit=20&offset=500",
                "/extended/v1/contract/" + contract + "/events?limit=20&cursor=" + logCursor,
                "/extended/v2/addresses/" + hot + "/transactions?limit=50",
                "/extended/v2/addresses/" + hot + "/transactions?limit=50&offset=" + total / 2,
                "/extended/v1/address/" + hot + "/mempool"));
        if (!cursor.isEmpty()) {
            routes.add("/extended/v2/addresses/" + hot + "/transactions?limit=20&cursor=" + cursor);
        }
        // The cursor-paged successors: a cursor naming a row (one lookup through its block), one naming
        // none (the binary search over positions), and the pages' neighbour keys.
        String v3 = "/extended/v3/principals/" + hot + "/transactions?limit=20";
        String v3Next = api.get(v3).body().at("/cursor/next").asText();
        long middle = latest.get("height").asLong() / 2;
        String logs = "/extended/v2/smart-contracts/" + contract + "/logs?limit=20";
        String logsOlder = api.get(logs).body().path("prev_cursor").asText();
        String mempool = "/extended/v3/principals/" + hot + "/mempool/transactions?limit=1";
        JsonNode pending = api.get(mempool).body();
        assertTrue(pending.get("total").asLong() > 1, "the hot address has pending transactions to page");
        routes.addAll(List.of(v3, v3 + "&cursor=" + v3Next, v3 + "&cursor=" + middle + ":1:0",
                v3 + "&cursor=" + middle + ":0:0", logs, logs + "&cursor=" + logsOlder,
                logs + "&cursor=" + middle + ":1:0:0&offset=5", mempool,
                mempool + "&cursor=" + pending.at("/cursor/next").asText()));
        int requests = 0;
        for (int round = 0; round < 6; round++) {
            for (String route : routes) {
                ApiServer.Answer answer = api.get(route);
                assertEquals(200, answer.status(), route + ": " + answer.rawBody());
                requests++;
            }
            // Outside the spec: readiness reads the payloads waiting for a parent (StatusStore).
            assertEquals(200, Http.get("http://127.0.0.1:" + api.port() + "/health/readiness").status());
            requests++;
        }
        return requests;
    }

    /**
     * The read statements of the stores, by store and constant: each store's SQL constants and the
     * queries of its repository methods (which name those constants).
     */
    static Map<String, String> storeStatements() throws ReflectiveOperationException {
        Map<String, String> statements = new TreeMap<>();
        for (JavaClass store : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stacksexplorer.query")) {
            if (!store.getSimpleName().endsWith("Store") || store.getName().contains("$")) {
                continue;
            }
            Class<?> type = Class.forName(store.getName());
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                    field.setAccessible(true);
                    String sql = (String) field.get(null);
                    if (sql.strip().regionMatches(true, 0, "SELECT", 0, 6)
                            || sql.strip().regionMatches(true, 0, "WITH", 0, 4)) {
                        statements.put(type.getSimpleName() + "." + field.getName(), sql);
                    }
                }
            }
            for (Method method : type.getDeclaredMethods()) {
                Query query = method.getAnnotation(Query.class);
                if (query != null && !statements.containsValue(query.value())) {
                    statements.put(type.getSimpleName() + "." + method.getName(), query.value());
                }
            }
        }
        return statements;
    }

    /**
     * A statement as the driver sends it: whitespace collapsed, each parameter ({@code ?} or a
     * repository's {@code :name}) numbered {@code $n}, and a list parameter {@code (:ids)} as a list.
     */
    static Pattern asSent(String sql) {
        String text = sql.strip().replaceAll("\\s+", " ");
        Matcher parameter = Pattern.compile("\\(:\\w+\\)|:\\w+|\\?").matcher(text);
        StringBuilder pattern = new StringBuilder();
        int at = 0;
        while (parameter.find()) {
            pattern.append(Pattern.quote(text.substring(at, parameter.start())))
                    .append(parameter.group().startsWith("(") ? "\\(\\$\\d+(?:, ?\\$\\d+)*\\)" : "\\$\\d+");
            at = parameter.end();
        }
        return Pattern.compile(pattern.append(Pattern.quote(text.substring(at))).toString());
    }

    /**
     * auto_explain's entries ("LOG:  duration: … plan:" then tab-indented "Query Text: …" and plan
     * lines) of statements that read (SELECT, not writes), by query text, the last plan per text.
     */
    static Map<String, String> plansOfReads(String log) {
        Map<String, String> plans = new LinkedHashMap<>();
        String[] lines = log.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].contains("LOG:  duration:") || !lines[i].contains("plan:")) {
                continue;
            }
            StringBuilder text = new StringBuilder();
            StringBuilder plan = new StringBuilder();
            boolean inText = false;
            int j = i + 1;
            for (; j < lines.length && lines[j].startsWith("\t"); j++) {
                String line = lines[j].substring(1);
                if (line.startsWith("Query Text:")) {
                    inText = true;
                    text.append(line.substring("Query Text:".length()).trim());
                } else if (inText && !line.matches("^\\s*(->\\s+)?[A-Z][^(]*\\(cost=.*") && plan.length() == 0) {
                    text.append(' ').append(line.trim());
                } else {
                    inText = false;
                    plan.append(line).append('\n');
                }
            }
            i = j - 1;
            String query = text.toString();
            if (query.regionMatches(true, 0, "SELECT", 0, 6) || query.regionMatches(true, 0, "WITH", 0, 4)) {
                plans.put(query, plan.toString());
            }
        }
        return plans;
    }
}
