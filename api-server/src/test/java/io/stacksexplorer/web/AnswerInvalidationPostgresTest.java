package io.stacksexplorer.web;

import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.config.RunModeSettings;
import io.stacksexplorer.generate.Preset;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.EventIngestor;
import io.stacksexplorer.ingest.TsvReplay;
import io.stacksexplorer.ops.CommitWatch;
import io.stacksexplorer.web.KeptAnswers.Kind;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.TxFacts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Answers kept across commits (issue 48) on a real PostgreSQL, driven by the demo chain's own event
 * log through the event observer's ingest: blocks, microblocks, mempool arrivals and drops,
 * replace-by-fee and the fork. After each payload, for some seventy request lines over every route,
 * this test compares what the cached server answers with what a server without the cache answers on
 * the same database (never different: no stale answer after a commit, on the writer, once the writer
 * has returned), and which kept answers the commit dropped: every answer whose data changed (a
 * related commit replaces it), and, per route, few of those whose data did not (an unrelated commit
 * keeps it). The readonly side (a standby) is {@code ops.ReadReplicaPostgresTest}.
 */
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class AnswerInvalidationPostgresTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Counts per route of what one payload did to the kept answers. */
    private static final class Tally {
        int changedAndDropped;
        int unchangedAndKept;
        int unchangedAndDropped;

        @Override
        public String toString() {
            return "changed and dropped " + changedAndDropped + ", unchanged and kept " + unchangedAndKept
                    + ", unchanged and dropped " + unchangedAndDropped;
        }
    }

    @Test
    void aCommitDropsExactlyTheAnswersItChanged() throws Exception {
        List<String> log = new ArrayList<>();
        Preset.DEMO.generate(log::add);
        Map<String, Object> properties = TestDatabase.POSTGRES.freshProperties();
        Map<String, Object> truthProperties = new HashMap<>(properties);
        truthProperties.putAll(RunModeSettings.readonlyProperties());
        truthProperties.put("stacks.answer-cache.enabled", false);
        try (ApplicationContext cached = ApplicationContext.run(EmbeddedServer.class, properties).getApplicationContext()) {
            try (ApplicationContext truth = ApplicationContext.run(EmbeddedServer.class, truthProperties)
                    .getApplicationContext()) {
                EventIngestor ingestor = cached.getBean(EventIngestor.class);
                KeptPages pages = cached.getBean(KeptPages.class);
                // Offset pages answered from kept parts after a commit (not while the lines are first asked).
                long pagesKeptThroughCommits = 0;
                Map<Kind, Tally> tallies = new EnumMap<>(Kind.class);
                // The cache follows the log from the start, as a server started before the chain would.
                waitUntilApplied(cached);
                int next = 0;
                // Two windows: the first microblocks, drops and replacements (lines 20-110), and the fork
                // that orphans the blocks at heights 135 and 136 (lines 676-677 of the demo log; the
                // other branch arrives from line 679).
                for (int[] window : new int[][]{{20, 110}, {678, 730}}) {
                    for (; next < window[0]; next++) {
                        DemoLogFollower.ingest(ingestor, log.get(next));
                        waitUntilApplied(cached);
                    }
                    Map<String, Kind> lines = requestLines(cached, log.subList(window[0], window[1]));
                    String cachedApi = api(cached);
                    String truthApi = api(truth);
                    // Everything asked twice, so that it is kept.
                    Map<String, String> before = new LinkedHashMap<>();
                    for (String line : lines.keySet()) {
                        get(cachedApi + line);
                        before.put(line, get(cachedApi + line));
                    }
                    KeptAnswers kept = cached.getBean(KeptAnswers.class);
                    long pageHitsBefore = pages.hits.sum();
                    for (; next < window[1]; next++) {
                        DemoLogFollower.ingest(ingestor, log.get(next));
                        waitUntilApplied(cached);
                        Map<String, Boolean> survived = new HashMap<>();
                        for (String line : lines.keySet()) {
                            survived.put(line, kept.get(line) != null);
                        }
                        for (Map.Entry<String, Kind> entry : lines.entrySet()) {
                            String line = entry.getKey();
                            String now = get(truthApi + line);
                            String served = get(cachedApi + line);
                            assertEquals(now, served, "payload " + next + " (" + path(log.get(next)) + "): " + line);
                            boolean changed = !now.equals(before.get(line));
                            Tally tally = tallies.computeIfAbsent(entry.getValue(), k -> new Tally());
                            if (changed && survived.get(line)) {
                                fail("payload " + next + " (" + path(log.get(next)) + ") changed " + line
                                        + " but its kept answer survived");
                            } else if (changed) {
                                tally.changedAndDropped++;
                            } else if (survived.get(line)) {
                                tally.unchangedAndKept++;
                            } else {
                                tally.unchangedAndDropped++;
                            }
                            before.put(line, now);
                        }
                    }
                    pagesKeptThroughCommits += pages.hits.sum() - pageHitsBefore;
                }
                System.out.println("offset pages from kept parts after a commit: " + pagesKeptThroughCommits
                        + "; in all " + pages.hits.sum() + ", read: " + pages.misses.sum());
                assertTrue(pagesKeptThroughCommits > 0, "some offset page after a commit came from kept parts");
                for (Kind kind : List.of(Kind.TIP, Kind.REORG, Kind.TX, Kind.PRINCIPAL, Kind.MEMPOOL, Kind.CONTRACT,
                        Kind.LOGS)) {
                    Tally tally = tallies.get(kind);
                    System.out.println("answers made from " + kind + ": " + tally);
                    assertTrue(tally.changedAndDropped > 0, kind + ": some payload changed an answer: " + tally);
                    if (kind != Kind.TIP) {
                        assertTrue(tally.unchangedAndKept > 0, kind + ": " + tally);
                        assertTrue(tally.unchangedAndDropped * 10 <= tally.unchangedAndKept,
                                kind + ": most answers that did not change stay kept: " + tally);
                    }
                }
                TestDatabase.dropSchemaOf(cached);
            }
        }
    }

    /**
     * Some seventy request lines over every route, from what the database holds now, and the status of
     * the contracts that the coming payloads deploy.
     */
    private static Map<String, Kind> requestLines(ApplicationContext context, List<String> coming) throws Exception {
        Map<String, Kind> lines = new LinkedHashMap<>();
        for (String line : coming) {
            NewBlock block = TsvReplay.delivery(line).block();
            for (NewTransaction tx : block == null ? List.<NewTransaction>of() : block.transactions()) {
                TxFacts facts = new CodecTxDecoder().decode(tx.rawTx());
                if (facts.txType().equals("smart_contract") && lines.size() < 4) {
                    lines.put("/extended/v2/smart-contracts/status?contract_id=" + facts.contractId(), Kind.CONTRACT);
                }
            }
        }
        lines.put("/extended", Kind.TIP);
        lines.put("/extended/v1/status", Kind.TIP);
        lines.put("/extended/v2/blocks/latest", Kind.TIP);
        DataSource dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (String[] row : rows(st, "SELECT block_height, index_block_hash FROM blocks WHERE canonical"
                    + " ORDER BY block_height DESC LIMIT 12")) {
                lines.put("/extended/v2/blocks/" + row[0], Kind.REORG);
                lines.put("/extended/v2/blocks/" + row[1], Kind.REORG);
            }
            List<String[]> mined = rows(st, "SELECT tx_id FROM txs WHERE canonical ORDER BY block_height DESC,"
                    + " tx_index LIMIT 24");
            List<String[]> pending = rows(st, "SELECT tx_id FROM mempool_txs WHERE NOT pruned"
                    + " ORDER BY receipt_time DESC LIMIT 24");
            for (int i = 0; i + 1 < mined.size(); i += 2) {
                lines.put("/extended/v1/tx/multiple?tx_id=" + mined.get(i)[0] + "&tx_id=" + mined.get(i + 1)[0], Kind.TX);
            }
            for (int i = 0; i + 1 < pending.size(); i += 2) {
                lines.put("/extended/v1/tx/multiple?tx_id=" + pending.get(i)[0] + "," + pending.get(i + 1)[0], Kind.TX);
            }
            for (String[] row : rows(st, "SELECT contract_id FROM (SELECT contract_id FROM smart_contracts"
                    + " UNION SELECT contract_id FROM mempool_txs WHERE tx_type = 'smart_contract') c"
                    + " ORDER BY contract_id LIMIT 4")) {
                lines.put("/extended/v2/smart-contracts/status?contract_id=" + row[0], Kind.CONTRACT);
            }
            for (String[] row : rows(st, "SELECT contract_id FROM contract_log_stats ORDER BY event_count DESC LIMIT 4")) {
                lines.put("/extended/v1/contract/" + row[0] + "/events?limit=5", Kind.LOGS);
                lines.put("/extended/v2/smart-contracts/" + row[0] + "/logs", Kind.LOGS);
            }
            // Offset pages next to each other: after a related commit the page at one offset is the
            // one that was at another before it, kept by position (KeptPages). The deepest first: it
            // reads the contract's count again, and the pages nearer the top then come from kept parts.
            for (String[] row : rows(st, "SELECT contract_id FROM contract_log_stats ORDER BY event_count DESC LIMIT 2")) {
                for (int offset = 6; offset >= 1; offset--) {
                    lines.put("/extended/v1/contract/" + row[0] + "/events?limit=3&offset=" + offset, Kind.LOGS);
                }
                lines.put("/extended/v1/contract/" + row[0] + "/events?limit=3&offset=2&unanchored=true", Kind.LOGS);
                lines.put("/extended/v1/contract/" + row[0] + "/events?limit=3&offset=3&unanchored=true", Kind.LOGS);
            }
            List<String[]> busiest = rows(st, "SELECT principal FROM principal_txs GROUP BY principal"
                    + " ORDER BY COUNT(*) DESC, principal LIMIT 8");
            for (String[] row : busiest) {
                lines.put("/extended/v2/addresses/" + row[0] + "/transactions?limit=5", Kind.PRINCIPAL);
                lines.put("/extended/v3/principals/" + row[0] + "/transactions", Kind.PRINCIPAL);
            }
            // The same for the busiest principals' histories, spliced from kept rows (PageSlice), each
            // way of rendering them.
            for (String[] row : busiest.subList(0, Math.min(2, busiest.size()))) {
                for (int offset = 6; offset >= 1; offset--) {
                    lines.put("/extended/v2/addresses/" + row[0] + "/transactions?limit=3&offset=" + offset,
                            Kind.PRINCIPAL);
                }
                lines.put("/extended/v2/addresses/" + row[0] + "/transactions?limit=3&offset=2&exclude_function_args=true",
                        Kind.PRINCIPAL);
                lines.put("/extended/v2/addresses/" + row[0] + "/transactions?limit=3&offset=3&exclude_function_args=true",
                        Kind.PRINCIPAL);
            }
            for (String[] row : rows(st, "SELECT principal FROM mempool_principals GROUP BY principal"
                    + " ORDER BY COUNT(*) DESC, principal LIMIT 6")) {
                lines.put("/extended/v1/address/" + row[0] + "/mempool", Kind.MEMPOOL);
                lines.put("/extended/v3/principals/" + row[0] + "/mempool/transactions", Kind.MEMPOOL);
            }
        }
        return lines;
    }

    private static List<String[]> rows(Statement st, String sql) throws Exception {
        List<String[]> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                String[] row = new String[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getString(i + 1);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static String path(String line) {
        return line.split("\t", 4)[2];
    }

    /** Until the cache has applied every commit it has seen (its own are seen before the writer returns). */
    private static void waitUntilApplied(ApplicationContext context) throws InterruptedException {
        CommitWatch commits = context.getBean(CommitWatch.class);
        AnswerInvalidation invalidation = context.getBean(AnswerInvalidation.class);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!invalidation.current(commits.version())) {
            if (System.nanoTime() > deadline) {
                fail("the answer cache did not apply the commit within 10 s");
            }
            Thread.sleep(2);
        }
    }

    private static String api(ApplicationContext context) {
        String url = context.getBean(EmbeddedServer.class).getURL().toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return answer.statusCode() + " " + answer.body();
    }
}
