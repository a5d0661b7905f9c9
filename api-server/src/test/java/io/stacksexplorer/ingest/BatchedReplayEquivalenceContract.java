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
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    private static final List<String> TABLES = List.of("blocks", "txs", "tx_events", "principal_txs",
            "principal_stats", "contract_log_stats", "smart_contracts", "mempool_txs", "mempool_principals",
            "mempool_principal_stats", "chain_state", "node_events");

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
                for (String table : TABLES) {
                    assertEquals(oneByOne.get(table), batched.get(table), table);
                }
            } finally {
                TestDatabase.dropSchemaOf(api.context());
            }
        }
    }

    /** Every row of every table as text, sorted; node_events without its generated id. */
    private static Map<String, List<String>> dump(ApiServer api) throws SQLException {
        DataSource dataSource = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
        Map<String, List<String>> tables = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (String table : TABLES) {
                List<String> rows = new ArrayList<>();
                // A principal whose pending transactions all left the mempool keeps a counter row at 0
                // when they were written one by one, and never gets one when they came and went within a
                // batch: both read as 0 pending.
                String where = table.equals("mempool_principal_stats") ? " WHERE pending_count <> 0" : "";
                try (ResultSet rs = st.executeQuery("SELECT * FROM " + table + where)) {
                    ResultSetMetaData meta = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            String column = meta.getColumnName(i).toLowerCase();
                            if (table.equals("node_events") && column.equals("id")
                                    || table.equals("chain_state") && column.equals("mempool_version")) {
                                continue;
                            }
                            row.append(column).append('=').append(rs.getString(i)).append('|');
                        }
                        rows.add(row.toString());
                    }
                }
                Collections.sort(rows);
                tables.put(table, rows);
            }
        }
        return tables;
    }
}
