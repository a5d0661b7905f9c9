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
        int exit = new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions", "2500",
                "--seed", "11");
        assertEquals(0, exit);
        JsonNode summary = JSON.readTree(dir.resolve("generated.tsv.summary.json").toFile());
        assertEquals(2500, summary.get("transactions").asLong());

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
        }
    }
}
