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
            checkTimes(b, where + " block " + block.height(), java.util.Set.of(), failures);
            // Nakamoto payloads carry the tenure height; a pre-Nakamoto block's is its height.
            JsonNode tenure = block.json().get("tenure_height");
            expect(failures, where + " block " + block.height() + " tenure_height",
                    tenure == null || tenure.isNull() ? String.valueOf(block.height()) : tenure.asText(),
                    b.path("tenure_height").asText());
            List<JsonNode> txs = log.served(block, "transactions");
            expect(failures, where + " block " + block.height() + " tx_count",
                    String.valueOf(txs.size()), b.get("tx_count").asText());
            for (String dim : List.of("read_count", "read_length", "runtime", "write_count", "write_length")) {
                long sum = 0;
                for (JsonNode tx : txs) {
                    sum += tx.path("execution_cost").path(dim).asLong();
                }
                expect(failures, where + " block " + block.height() + " " + dim, String.valueOf(sum),
                        b.get("execution_cost_" + dim).asText());
            }
        }
        // The genesis block is never served itself, by height or by its hashes.
        if (log.genesis != null) {
            for (String id : List.of("0", log.genesis.indexBlockHash(), log.genesis.json().get("block_hash").asText())) {
                int status = server.get("/extended/v2/blocks/" + id).status();
                if (status != 404) {
                    failures.add(where + " genesis block " + id + ": " + status + ", expected 404");
                }
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
                    checkTimes(entry.get("result"), where + " tx " + id, UNKNOWN_TX_TIMES, failures);
                }
            }
        }
        // Every canonical contract log is served by the contract events endpoint.
        for (Map.Entry<String, List<String>> logs : log.canonicalContractLogs().entrySet()) {
            String contractId = logs.getKey();
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

    /**
     * mainnet-block0: block 0 (the boot contracts, the genesis STX mints) is served as part of block 1,
     * block 0 itself never; the same after replaying the log again and after a rebuild.
     */
    @Test
    void genesisBlockIsServedAsPartOfBlockOne() throws IOException {
        Path file = eventsFolder().resolve("mainnet-block0.tsv");
        Assumptions.assumeTrue(Files.exists(file), "no mainnet-block0.tsv");
        RecordedLog log = new RecordedLog(file);
        RecordedLog.Block zero = log.genesis;
        RecordedLog.Block one = log.blocks.get(log.canonicalChain.get(0));
        assertEquals(1, one.height());
        JsonNode zeroTxs = zero.json().get("transactions");
        String bootAddress = "SP000000000000000000002Q6VF78";
        List<String> requests = new ArrayList<>(List.of("/extended/v2/blocks/1", "/extended/v2/blocks/latest",
                "/extended/v2/smart-contracts/status?contract_id=" + bootAddress + ".bns&contract_id=" + bootAddress + ".pox",
                "/extended/v2/addresses/" + bootAddress + "/transactions?limit=50",
                "/extended/v2/addresses/" + bootAddress + ".bns/transactions"));
        StringBuilder ids = new StringBuilder("/extended/v1/tx/multiple?event_limit=50");
        zeroTxs.forEach(tx -> ids.append("&tx_id=").append(tx.get("txid").asText()));
        requests.add(ids.toString());
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            TsvReplay.replay(file, server.ingestor(), true, n -> { });
            Map<String, JsonNode> first = answers(server, requests);

            for (String id : List.of("0", zero.indexBlockHash(), zero.json().get("block_hash").asText())) {
                assertEquals(404, server.get("/extended/v2/blocks/" + id).status(), "block 0 by " + id);
            }
            JsonNode block = first.get("/extended/v2/blocks/1");
            assertEquals(one.indexBlockHash(), block.get("index_block_hash").asText());
            assertEquals(zeroTxs.size() + one.json().get("transactions").size(), block.get("tx_count").asInt());
            JsonNode status = first.get(requests.get(2));
            assertEquals(1, status.at("/" + bootAddress + ".bns/result/block_height").asInt(), status.toString());
            assertEquals("success", status.at("/" + bootAddress + ".pox/result/status").asText());
            for (JsonNode tx : zeroTxs) {
                JsonNode served = first.get(ids.toString()).at("/" + tx.get("txid").asText() + "/result");
                String what = tx.get("txid").asText() + " " + served;
                assertEquals(1, served.get("block_height").asInt(), what);
                assertEquals(tx.get("tx_index").asInt() + 1, served.get("tx_index").asInt(), what);
                assertEquals(one.json().get("block_hash").asText(), served.get("block_hash").asText(), what);
                assertEquals(one.json().get("parent_block_hash").asText(), served.get("parent_block_hash").asText(), what);
                assertEquals(one.json().get("burn_block_time").asLong(), served.get("burn_block_time").asLong(), what);
                assertEquals(one.json().get("burn_block_height").asLong(), served.get("burn_block_height").asLong(), what);
                assertTrue(served.get("canonical").asBoolean(), what);
            }
            // The genesis STX mints: "sender" is "", as at the peer.
            int mints = 0;
            for (JsonNode entry : first.get(ids.toString())) {
                for (JsonNode event : entry.at("/result/events")) {
                    if (event.at("/asset/asset_event_type").asText().equals("mint")) {
                        assertEquals("", event.at("/asset/sender").asText("absent"), event.toString());
                        mints++;
                    }
                }
            }
            assertTrue(mints > 0, "genesis STX mints served");
            JsonNode history = first.get(requests.get(3));
            assertTrue(history.get("total").asInt() >= zeroTxs.size() - 1, history.toString());
            history.get("results").forEach(r -> assertEquals(1, r.at("/tx/block_height").asInt(), r.toString()));
            assertEquals(1, first.get(requests.get(4)).get("total").asInt(), "the bns deployment in the contract's history");

            // The same log again changes nothing; neither does a rebuild from the stored payloads.
            TsvReplay.replay(file, server.ingestor(), true, n -> { });
            assertEquals(first, answers(server, requests), "after replaying the log again");
            server.ingestor().rebuild(n -> { });
            assertEquals(first, answers(server, requests), "after a rebuild");
        }
    }

    /**
     * Mempool transactions received in the same second (one /new_mempool_tx payload) are listed by
     * tx_id ascending after receipt_time descending, identically on both databases.
     */
    @Test
    void addressMempoolTiesAreOrderedByTxId() {
        io.stacksexplorer.demo.DemoChain chain = io.stacksexplorer.demo.DemoChain.generate(
                io.stacksexplorer.demo.DemoChain.DEFAULT_SEED);
        io.stacksexplorer.write.CodecTxDecoder decoder = new io.stacksexplorer.write.CodecTxDecoder();
        Map<String, List<String>> bySender = new java.util.HashMap<>();
        chain.mempool().forEach(tx -> bySender.computeIfAbsent(decoder.decode(tx.rawTx()).senderAddress(),
                k -> new ArrayList<>()).add(tx.rawTx()));
        Map.Entry<String, List<String>> busiest = bySender.entrySet().stream()
                .max(java.util.Comparator.comparingInt(e -> e.getValue().size())).orElseThrow();
        List<String> raws = busiest.getValue();
        assertTrue(raws.size() >= 3, "a sender with several pending transactions");
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            // Reverse order of arrival within the payload, so that insertion order cannot pass for tx_id order.
            List<String> later = new ArrayList<>(raws.subList(1, raws.size()));
            java.util.Collections.reverse(later);
            server.ingestor().ingest("/new_mempool_tx", IngestServer.JSON.valueToTree(later).toString(), 1_700_000_000L);
            server.ingestor().ingest("/new_mempool_tx", IngestServer.JSON.valueToTree(List.of(raws.get(0))).toString(),
                    1_600_000_000L);
            List<String> expected = new ArrayList<>(later.stream()
                    .map(raw -> io.stacksexplorer.codec.tx.StacksTransaction.decodeHex(raw).txId()).sorted().toList());
            expected.add(io.stacksexplorer.codec.tx.StacksTransaction.decodeHex(raws.get(0)).txId());
            List<String> served = new ArrayList<>();
            server.get("/extended/v1/address/" + busiest.getKey() + "/mempool?limit=50").body().get("results")
                    .forEach(r -> served.add(r.get("tx_id").asText()));
            assertEquals(expected, served);
            List<String> paged = new ArrayList<>();
            for (int offset = 0; offset < expected.size(); offset++) {
                server.get("/extended/v1/address/" + busiest.getKey() + "/mempool?limit=1&offset=" + offset).body()
                        .get("results").forEach(r -> paged.add(r.get("tx_id").asText()));
            }
            assertEquals(expected, paged, "one at a time");
        }
    }

    private static Map<String, JsonNode> answers(IngestServer server, List<String> requests) {
        Map<String, JsonNode> answers = new java.util.LinkedHashMap<>();
        for (String request : requests) {
            Answer answer = server.get(request);
            assertEquals(200, answer.status(), request + " " + answer.raw());
            answers.put(request, answer.body());
        }
        return answers;
    }

    /** Transaction times the spec documents as possibly unknown ({@code -1} or {@code 0}, rendered {@code ""}). */
    static final Set<String> UNKNOWN_TX_TIMES = Set.of("burn_block_time_iso", "parent_burn_block_time_iso");

    /**
     * Every {@code *_time_iso} is a valid ISO-8601 time matching its {@code *_time}, or {@code ""}
     * where the spec documents an unknown time (and then {@code *_time} is not positive).
     */
    static void checkTimes(JsonNode object, String where, Set<String> mayBeUnknown, List<String> failures) {
        for (java.util.Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!name.endsWith("_time_iso")) {
                continue;
            }
            String iso = object.get(name).asText();
            long seconds = object.path(name.substring(0, name.length() - 4)).asLong();
            if (iso.isEmpty()) {
                if (!mayBeUnknown.contains(name) || seconds > 0) {
                    failures.add(where + " " + name + " is \"\" (" + name.replace("_iso", "") + " " + seconds + ")");
                }
                continue;
            }
            try {
                if (java.time.Instant.parse(iso).getEpochSecond() != seconds) {
                    failures.add(where + " " + name + " " + iso + " is not " + seconds);
                }
            } catch (java.time.format.DateTimeParseException e) {
                failures.add(where + " " + name + " is not an ISO-8601 time: " + iso);
            }
        }
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
            try (IngestServer server = IngestServer.start(database(), PeerAnswers.chainId(dir.getFileName().toString()))) {
                TsvReplay.replay(log, server.ingestor(), true, n -> { });
                total.add(PeerAnswers.compare(server, dir));
            }
        }
        System.out.printf("peer answers [%s]: %s%n", database(), total);
        if (!total.failures.isEmpty()) {
            fail(total.failures.size() + " peer answers differ:\n" + String.join("\n", total.failures));
        }
        assertTrue(total.matched > 0, "nothing compared");
    }
}
