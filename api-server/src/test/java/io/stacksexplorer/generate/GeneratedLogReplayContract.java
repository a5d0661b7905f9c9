package io.stacksexplorer.generate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.EventIngestor;
import io.stacksexplorer.ingest.TsvReplay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small generated log ({@code generate} command, summary file and all) replayed through the real
 * ingest path into a fresh database, then read back over HTTP (every answer validated against the
 * spec): nothing rejected, and the chain tip, the hot address's history and the hot contract's
 * logs are what the summary says.
 */
abstract class GeneratedLogReplayContract {

    private static final ObjectMapper JSON = new ObjectMapper();

    abstract TestDatabase database();

    @Test
    void aGeneratedLogReplaysWithoutRejectionsAndTheApiAgreesWithItsSummary(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("generated.tsv");
        int exit = new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions", "5000",
                "--seed", "11", "--era", "mixed");
        assertEquals(0, exit);
        JsonNode summary = JSON.readTree(dir.resolve("generated.tsv.summary.json").toFile());
        assertEquals(5000, summary.get("transactions").asLong());
        // This seed's mixed log has a 2.x fork, a forked-off microblock and a Nakamoto fork (a
        // tenure's last blocks replaced), so every path is replayed.
        assertTrue(summary.get("reorgs").asLong() >= 2 && summary.get("orphaned_microblocks").asLong() > 0);
        long twoXBlocks = summary.get("blocks_by_era").get("2").asLong();
        assertTrue(twoXBlocks > 20 && summary.get("blocks_by_era").get("3").asLong() > 300);

        try (ApiServer server = ApiServer.start(database())) {
            TsvReplay.Summary replayed = TsvReplay.replay(log, server.context().getBean(EventIngestor.class), true,
                    n -> { });
            assertEquals(0, replayed.rejected());
            assertEquals(summary.get("lines").asLong(), replayed.lines());
            assertEquals(summary.get("blocks").asLong() + summary.get("orphaned_blocks").asLong(),
                    replayed.derived().blocks(), "every block stored, orphaned siblings included");

            JsonNode tip = server.get("/extended").body().get("chain_tip");
            assertEquals(summary.get("tip_height").asLong(), tip.get("block_height").asLong());
            assertEquals(summary.get("tip_index_block_hash").asText(), tip.get("index_block_hash").asText());
            JsonNode latest = server.get("/extended/v2/blocks/latest").body();
            assertEquals(summary.get("tip_index_block_hash").asText(), latest.get("index_block_hash").asText());
            // Every 2.x block had a coinbase, then one per Nakamoto tenure.
            assertEquals(twoXBlocks + summary.get("tenures").asLong(), latest.get("tenure_height").asLong(),
                    "a Nakamoto block's tenure height counts coinbases");
            assertTrue(latest.get("block_time").asLong() > latest.get("burn_block_time").asLong(),
                    "a Nakamoto block's own time, after its burn block");
            JsonNode early = server.get("/extended/v2/blocks/5").body();
            assertEquals(5, early.get("tenure_height").asLong(), "a pre-Nakamoto block's tenure height is its height");

            String hot = summary.get("hot_address").asText();
            JsonNode history = server.get("/extended/v2/addresses/" + hot + "/transactions?limit=50").body();
            assertEquals(summary.get("hot_address_transactions").asLong(), history.get("total").asLong());
            List<String> ids = new ArrayList<>();
            for (JsonNode row : history.get("results")) {
                assertTrue(row.get("tx").get("canonical").asBoolean());
                ids.add(row.get("tx").get("tx_id").asText());
            }
            JsonNode lookup = server.get("/extended/v1/tx/multiple?tx_id=" + String.join("&tx_id=", ids.subList(0, 10)))
                    .body();
            for (String id : ids.subList(0, 10)) {
                assertTrue(lookup.get(id).get("found").asBoolean(), id);
            }

            String hotContract = summary.get("hot_contract").asText();
            JsonNode logs = server.get("/extended/v1/contract/" + hotContract + "/events?limit=50").body();
            assertEquals(summary.get("hot_contract_logs").asLong(), logs.get("total").asLong());
            assertEquals(50, logs.get("results").size());

            JsonNode status = server.get("/extended/v2/smart-contracts/status?contract_id=" + hotContract).body();
            assertEquals("success", status.get(hotContract).get("result").get("status").asText());

            // Transactions announced at the end and never mined are still pending.
            assertTrue(server.get("/extended/v1/address/" + hot + "/mempool").status() == 200);

            // Confirmed microblock transactions keep the tx_index they had in their microblock and
            // the time their microblock arrived (the recorded time of its line), as at the peer,
            // though the confirming block lists them at later indexes with its own time.
            int checked = 0;
            for (var unanchored : microblockTransactions(log).entrySet()) {
                String txId = unanchored.getKey().split("/")[0];
                JsonNode found = server.get("/extended/v1/tx/multiple?tx_id=" + txId).body().get(txId);
                JsonNode tx = found.get("result");
                String microblock = unanchored.getKey().split("/")[1];
                if (tx.hasNonNull("block_height") && tx.get("canonical").asBoolean()
                        && tx.get("microblock_canonical").asBoolean() && !tx.get("is_unanchored").asBoolean()
                        && tx.get("microblock_hash").asText().equals(microblock)) {
                    long[] place = unanchored.getValue();
                    assertEquals(place[0], tx.get("tx_index").asLong(), txId + " tx_index");
                    assertEquals(place[1], tx.get("block_time").asLong(), txId + " block_time");
                    checked++;
                }
            }
            assertTrue(checked > 0, "the log confirms microblock transactions");
        }
    }

    /**
     * Each microblock transaction of the log, by tx id and microblock hash (a stream that forked
     * off carries the same transaction in another microblock): its tx_index there and the line's time, rounded.
     */
    private static java.util.Map<String, long[]> microblockTransactions(Path log) throws java.io.IOException {
        java.util.Map<String, long[]> places = new java.util.LinkedHashMap<>();
        for (String line : java.nio.file.Files.readAllLines(log)) {
            String[] columns = line.split("\t", 4);
            if (columns.length == 4 && columns[2].equals("/new_microblocks")) {
                // The arrival time to the nearest second, as the peer takes it (Math.round).
                java.time.OffsetDateTime arrived = java.time.OffsetDateTime.parse(columns[1].trim().replace(' ', 'T')
                        .replaceFirst("([+-]\\d\\d)$", "$1:00"));
                long time = arrived.toEpochSecond() + (arrived.getNano() >= 500_000_000 ? 1 : 0);
                for (JsonNode tx : JSON.readTree(columns[3]).get("transactions")) {
                    places.putIfAbsent(tx.get("txid").asText() + "/" + tx.get("microblock_hash").asText(),
                            new long[]{tx.get("tx_index").asLong(), time});
                }
            }
        }
        return places;
    }
}
