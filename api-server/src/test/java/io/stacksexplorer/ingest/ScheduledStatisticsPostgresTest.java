package io.stacksexplorer.ingest;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write path's scheduled ANALYZE (write.StatisticsSchedule) runs on a thread of its own now,
 * not on the writing thread after the commit that made it due: a replay of a few thousand
 * transactions into an empty schema still leaves every written table analysed by it
 * ({@code last_analyze} is set by an ANALYZE statement only, never by autovacuum).
 */
class ScheduledStatisticsPostgresTest {

    private static final List<String> TABLES = List.of("blocks", "txs", "tx_events", "principal_txs", "mempool_txs");

    @BeforeAll
    static void onlyWhenAsked() {
        Assumptions.assumeTrue(IngestServer.postgresEnabled(), "PostgreSQL tests run with -Dpg.tests=true");
    }

    @Test
    void aReplayLeavesItsTablesAnalysedByTheScheduledRefresh(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("generated.tsv");
        assertEquals(0, new CommandLine(new GenerateCommand()).execute(log.toString(), "--transactions", "3000",
                "--seed", "5"));
        try (ApiServer api = ApiServer.start(TestDatabase.POSTGRES)) {
            try {
                String schema = api.context().getProperty("flyway.datasources.default.schemas", String.class)
                        .orElseThrow();
                TsvReplay.replay(log, api.context().getBean(EventIngestor.class), true, n -> { });
                DataSource dataSource = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
                List<String> notAnalysed = notAnalysed(dataSource, schema);
                // Statistics reach pg_stat_user_tables when the analysing transaction ends; allow for
                // the refresh still running on its thread.
                for (int tries = 0; !notAnalysed.isEmpty() && tries < 300; tries++) {
                    Thread.sleep(100);
                    notAnalysed = notAnalysed(dataSource, schema);
                }
                assertTrue(notAnalysed.isEmpty(), "never analysed by the write path: " + notAnalysed);
            } finally {
                TestDatabase.dropSchemaOf(api.context());
            }
        }
    }

    private static List<String> notAnalysed(DataSource dataSource, String schema) throws Exception {
        List<String> missing = new ArrayList<>(TABLES);
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(
                "SELECT relname FROM pg_stat_user_tables WHERE schemaname = ? AND last_analyze IS NOT NULL")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    missing.remove(rs.getString(1));
                }
            }
        }
        return missing;
    }
}
