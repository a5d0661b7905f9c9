package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.ingest.IngestServer.Answer;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every recorded node event log under {@code shared/data/stacks-node-events} posted to the event
 * observer over HTTP, then checked over the public API against the log itself; and every 200
 * answer the peer gave for the same logs ({@code shared/data/peer-answers}) compared value for
 * value. Skipped when the shared data is absent.
 */
abstract class NodeEventsIngestContract {

    abstract TestDatabase database();

    @Test
    void everyLogReplaysAndIsServedAsTheNodeDecided() throws IOException {
        Path folder = eventsFolder();
        List<String> failures = new ArrayList<>();
        for (Path file : RecordedLog.all(folder)) {
            RecordedLog log = new RecordedLog(file);
            try (IngestServer server = IngestServer.start(database(), log.chainId())) {
                int lineNo = 0;
                for (RecordedLog.Line line : log.lines) {
                    lineNo++;
                    Answer answer = server.postToObserver(line.path(), line.body());
                    assertEquals(200, answer.status(), log.name() + ":" + lineNo + " " + line.path() + " " + answer.raw());
                }
                List<String> fileFailures = new ArrayList<>();
                checkAgainstLog(server, log, fileFailures);
                IngestStats stats = server.ingestor().stats();
                System.out.printf("ingest %s [%s]: %d lines, %d blocks (%d canonical), %d transactions, %d events,"
                                + " %d mempool, %d failures%n", log.name(), database(), log.lines.size(), stats.blocks(),
                        log.canonicalChain.size(), stats.transactions(), stats.events(), stats.mempool(),
                        fileFailures.size());
                failures.addAll(fileFailures);
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " differences:\n" + String.join("\n", failures.subList(0, Math.min(60, failures.size()))));
        }
    }

    private static void checkAgainstLog(IngestServer server, RecordedLog log, List<String> failures) {
        String where = log.name();
        if (log.tip != null) {
            JsonNode tip = server.get("/extended").body().get("chain_tip");
            expect(failures, where + " tip", log.tip.indexBlockHash(), tip.path("index_block_hash").asText());
        }
        // Each canonical block: hash, tx_count and execution costs summed over its transactions.
        for (String hash : log.canonicalChain) {
            RecordedLog.Block block = log.blocks.get(hash);
            Answer answer = server.get("/extended/v2/blocks/" + block.height());
            if (answer.status() != 200) {
                failures.add(where + " block " + block.height() + ": " + answer.status());
                continue;
            }
            JsonNode b = answer.body();
            expect(failures, where + " block " + block.height() + " index_block_hash", hash, b.get("index_block_hash").asText());
            expect(failures, where + " block " + block.height() + " tx_count",
                    String.valueOf(block.json().get("transactions").size()), b.get("tx_count").asText());
            for (String dim : List.of("read_count", "read_length", "runtime", "write_count", "write_length")) {
                long sum = 0;
                for (JsonNode tx : block.json().get("transactions")) {
                    sum += tx.path("execution_cost").path(dim).asLong();
                }
                expect(failures, where + " block " + block.height() + " " + dim, String.valueOf(sum),
                        b.get("execution_cost_" + dim).asText());
            }
        }
        // Every transaction of the log: canonical ones found with the log's status in their block;
        // unconfirmed microblock ones found as unanchored; the others, when served, with the log's status.
        Map<String, JsonNode> canonical = log.canonicalTransactions();
        List<String> ids = new ArrayList<>(log.allTxIds);
        for (int from = 0; from < ids.size(); from += 40) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + 40));
            Answer answer = server.get("/extended/v1/tx/multiple?unanchored=true&tx_id=" + String.join("&tx_id=", batch));
            for (String id : batch) {
                JsonNode entry = answer.status() == 200 ? answer.body().get(id) : null;
                boolean found = entry != null && entry.path("found").asBoolean();
                JsonNode expected = canonical.containsKey(id) ? canonical.get(id) : log.unanchoredOnTip.get(id);
                if (expected != null) {
                    if (!found) {
                        failures.add(where + " tx " + id + " not found");
                        continue;
                    }
                    expect(failures, where + " tx " + id + " status", expected.get("status").asText(),
                            entry.at("/result/tx_status").asText());
                    expect(failures, where + " tx " + id + " unanchored",
                            String.valueOf(!canonical.containsKey(id)), entry.at("/result/is_unanchored").asText("false"));
                }
            }
        }
        // Every canonical contract log is served by the contract events endpoint.
        for (Map.Entry<String, List<String>> logs : log.canonicalContractLogs().entrySet()) {
            String contractId = logs.getKey();
            if (!sameNetwork(contractId, log.chainId())) {
                continue; // a request address of the other network is a 400 by our rules
            }
            Set<String> served = new HashSet<>();
            for (int offset = 0; ; offset += 50) {
                Answer answer = server.get("/extended/v1/contract/" + contractId + "/events?limit=50&offset=" + offset);
                if (answer.status() != 200) {
                    failures.add(where + " events of " + contractId + ": " + answer.status() + " " + answer.raw());
                    break;
                }
                JsonNode results = answer.body().get("results");
                results.forEach(r -> served.add(r.get("tx_id").asText() + " " + r.at("/contract_log/value/hex").asText()));
                if (results.size() < 50) {
                    break;
                }
            }
            for (String expected : logs.getValue()) {
                if (!served.contains(expected)) {
                    failures.add(where + " contract log of " + contractId + " not served: " + expected);
                }
            }
        }
    }

    static boolean sameNetwork(String principal, String chainId) {
        boolean mainnet = principal.startsWith("SP") || principal.startsWith("SM");
        return mainnet == "0x00000001".equals(chainId);
    }

    static void expect(List<String> failures, String what, String expected, String actual) {
        if (!expected.equals(actual)) {
            failures.add(what + ": expected " + expected + ", got " + actual);
        }
    }

    static Path eventsFolder() {
        var folder = IngestServer.sharedData("stacks-node-events");
        Assumptions.assumeTrue(folder.isPresent(), "no shared/data/stacks-node-events beside the project");
        return folder.get();
    }

    static long jsonFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @Test
    void peerAnswersAreMatched() throws IOException {
        Path events = eventsFolder();
        var answers = IngestServer.sharedData("peer-answers");
        Assumptions.assumeTrue(answers.isPresent(), "no shared/data/peer-answers");
        PeerAnswers.Result total = new PeerAnswers.Result();
        for (Path dir : PeerAnswers.folders(answers.get())) {
            Path log = events.resolve(dir.getFileName() + ".tsv");
            if (!Files.exists(log)) {
                continue;
            }
            for (String chainId : PeerAnswers.chainIds(dir.getFileName().toString())) {
                try (IngestServer server = IngestServer.start(database(), chainId)) {
                    TsvReplay.replay(log, server.ingestor(), true, n -> { });
                    total.add(PeerAnswers.compare(server, dir, chainId));
                }
            }
        }
        System.out.printf("peer answers [%s]: %s%n", database(), total);
        if (!total.failures.isEmpty()) {
            fail(total.failures.size() + " peer answers differ:\n" + String.join("\n", total.failures));
        }
        assertTrue(total.matched > 0, "nothing compared");
    }
}
