package io.stacksexplorer.ingest;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a replay's batching does to the write path leaves no trace in the database: a generated log
 * (mempool churn, drops, reorgs, microblocks) replayed in batches of consecutive payloads, where
 * mempool transactions mined within the batch are written once and already pruned
 * (write.UnwrittenMempool) and, on PostgreSQL, rows travel by COPY (write.CopyRows), ends with
 * every table row for row equal to the same log delivered one payload per database transaction
 * with plain INSERTs.
 */
abstract class BatchedReplayEquivalenceContract {

    abstract TestDatabase database();

    @Test
    void aBatchedReplayEndsWithTheSameRowsAsOneDeliveryPerTransaction(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("generated.tsv");
        assertEquals(0, new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions", "3000",
                "--seed", "11"));

        Map<String, List<String>> oneByOne;
        String copy = System.getProperty("stacks.write.copy");
        System.setProperty("stacks.write.copy", "false");
        try (ApiServer api = ApiServer.start(database())) {
            try {
                EventIngestor ingestor = api.context().getBean(EventIngestor.class);
                for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                    String[] columns = line.split("\t", 4);
                    ingestor.ingest(columns[2], columns[3], TsvReplay.epochSeconds(columns[1]));
                }
                oneByOne = dump(api);
            } finally {
                TestDatabase.dropSchemaOf(api.context());
            }
        } finally {
            if (copy == null) {
                System.clearProperty("stacks.write.copy");
            } else {
                System.setProperty("stacks.write.copy", copy);
            }
        }

        try (ApiServer api = ApiServer.start(database())) {
            try {
                TsvReplay.replay(log, api.context().getBean(EventIngestor.class), true, n -> { });
                Map<String, List<String>> batched = dump(api);
                assertTrue(batched.get("mempool_txs").size() > 1000, "the log has mempool traffic");
                for (String table : TableDump.TABLES) {
                    assertEquals(oneByOne.get(table), batched.get(table), table);
                }
            } finally {
                TestDatabase.dropSchemaOf(api.context());
            }
        }
    }

    /**
     * Every table; node_events without its generated ids, chain_state without the mempool and positions
     * versions (bumped once per database transaction). A principal whose pending transactions all left the
     * mempool keeps a counter row at 0 when they were written one by one, and never gets one when
     * they came and went within a batch: both read as 0 pending, so rows at 0 are left out.
     */
    private static Map<String, List<String>> dump(ApiServer api) throws SQLException {
        DataSource dataSource = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
        try (Connection c = dataSource.getConnection()) {
            return TableDump.of(c, Set.of("node_events.id", "chain_state.mempool_version", "chain_state.positions_version"),
                    Map.of("mempool_principal_stats", "pending_count <> 0"));
        }
    }
}
