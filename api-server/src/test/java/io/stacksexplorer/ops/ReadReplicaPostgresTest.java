package io.stacksexplorer.ops;

import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.config.RunModeSettings;
import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.web.AnswerCacheProbe;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real streaming replication: a primary and a hot standby made with {@code pg_basebackup -R}. A
 * reader ({@code STACKS_API_MODE=readonly}) on the standby starts first, before any schema exists,
 * and answers 503; the writer starts on the primary, migrates and writes blocks through the write
 * path; the reader serves every new block within seconds, without restart.
 */
class ReadReplicaPostgresTest {

    @Test
    void readerOnAStandbyServesTheWritersBlocks() throws Exception {
        assumeTrue(PgCluster.available(), "needs -Dpg.tests=true and the postgresql server binaries");
        List<NewBlock> blocks = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks();
        try (PgCluster primary = PgCluster.primary(); PgCluster standby = primary.standby()) {
            Map<String, Object> readerProps = new HashMap<>(StorageSettings.properties(standby.env()));
            readerProps.putAll(RunModeSettings.readonlyProperties());
            readerProps.put("micronaut.server.port", -1);
            try (ApplicationContext reader = ApplicationContext.run(EmbeddedServer.class, readerProps).getApplicationContext()) {
                String api = reader.getBean(EmbeddedServer.class).getURL().toString();
                DataSource readerDb = DelegatingDataSource.unwrapDataSource(reader.getBean(DataSource.class));
                try (Connection c = readerDb.getConnection(); ResultSet rs = c.createStatement().executeQuery("select pg_is_in_recovery()")) {
                    rs.next();
                    assertTrue(rs.getBoolean(1), "the reader is connected to the standby");
                }
                Http.Answer early = Http.get(api + "/extended/v2/blocks/latest");
                assertEquals(503, early.status(), early.body());
                assertTrue(early.body().contains("schema is not there yet"), early.body());
                assertEquals(503, Http.get(api + "/health/readiness").status());

                Map<String, Object> writerProps = DatabaseOutagePostgresTest.serverProperties(primary);
                try (ApplicationContext writer = ApplicationContext.run(EmbeddedServer.class, writerProps).getApplicationContext()) {
                    ChainWriter chain = writer.getBean(ChainWriter.class);
                    for (int n : new int[]{5, 12}) {
                        blocks.stream().skip(n == 5 ? 0 : 5).limit(n == 5 ? 5 : 7).forEach(chain::writeBlock);
                        long written = System.nanoTime();
                        Http.Answer tip = Wait.until(() -> Http.get(api + "/extended/v2/blocks/latest"),
                                a -> a.status() == 200 && a.body().contains("\"height\":" + n + ","), 15);
                        System.out.printf("reader on the standby served block %d %d ms after the writer wrote it%n",
                                n, (System.nanoTime() - written) / 1_000_000);
                        assertTrue(tip.header("ETag") != null, "ETag from the body");
                        assertEquals(200, Http.get(api + "/extended/v2/blocks/" + (n - 1)).status());
                    }
                    assertEquals(200, Http.get(api + "/health/readiness").status());
                    // The answer cache follows the standby's replayed commits (the second block above
                    // was asked for after the first had been kept under the same request line).
                    assertNotEquals(CommitWatch.UNKNOWN, reader.getBean(CommitWatch.class).version(),
                            "the reader's commit watch reads the standby's snapshots");
                }
            }
        }
    }

    /**
     * Issue 48 on a standby: the reader's kept answers survive the primary's commits that do not touch
     * them and are replaced, within the watch interval plus replay, when one does. Block 2 is changed
     * on the primary behind the change log's back (a direct UPDATE, replicated like any commit): its
     * kept answer staying the same through that and three new blocks shows it was kept, not re-read.
     */
    @Test
    void readerOnAStandbyKeepsAnswersThatNoCommitChanged() throws Exception {
        assumeTrue(PgCluster.available(), "needs -Dpg.tests=true and the postgresql server binaries");
        List<NewBlock> blocks = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks();
        try (PgCluster primary = PgCluster.primary(); PgCluster standby = primary.standby();
             ApplicationContext writer = ApplicationContext.run(EmbeddedServer.class,
                     DatabaseOutagePostgresTest.serverProperties(primary)).getApplicationContext()) {
            ChainWriter chain = writer.getBean(ChainWriter.class);
            blocks.stream().limit(5).forEach(chain::writeBlock);
            Map<String, Object> readerProps = new HashMap<>(StorageSettings.properties(standby.env()));
            readerProps.putAll(RunModeSettings.readonlyProperties());
            readerProps.put("micronaut.server.port", -1);
            try (ApplicationContext reader = ApplicationContext.run(EmbeddedServer.class, readerProps).getApplicationContext()) {
                String api = reader.getBean(EmbeddedServer.class).getURL().toString();
                Wait.until(() -> Http.get(api + "/extended/v2/blocks/latest"),
                        a -> a.status() == 200 && a.body().contains("\"height\":5,"), 15);
                // An answer is kept once the cache follows the change log (it starts with a request).
                Wait.until(() -> AnswerCacheProbe.applied(reader), applied -> applied, 15);
                Http.Answer block2 = Http.get(api + "/extended/v2/blocks/2");
                assertEquals(200, block2.status(), block2.body());
                DataSource primaryDb = DelegatingDataSource.unwrapDataSource(writer.getBean(DataSource.class));
                try (Connection c = primaryDb.getConnection()) {
                    assertEquals(1, c.createStatement().executeUpdate(
                            "UPDATE blocks SET burn_block_time = 12345 WHERE block_height = 2"));
                }
                blocks.stream().skip(5).limit(3).forEach(chain::writeBlock);
                long written = System.nanoTime();
                Wait.until(() -> Http.get(api + "/extended/v2/blocks/latest"),
                        a -> a.body().contains("\"height\":8,"), 15);
                System.out.printf("reader on the standby replaced its latest block %d ms after the writer wrote it%n",
                        (System.nanoTime() - written) / 1_000_000);
                // Served from the cache only once it has applied every replayed commit.
                Wait.until(() -> AnswerCacheProbe.applied(reader), applied -> applied, 15);
                assertEquals(block2.body(), Http.get(api + "/extended/v2/blocks/2").body(),
                        "three blocks and an unlogged update later, the kept answer of block 2 is served");
                assertTrue(Http.get(api + "/extended/v2/blocks/2?unanchored=false").body()
                        .contains("\"burn_block_time\":12345,"), "another request line reads the replicated update");
            }
        }
    }
}
