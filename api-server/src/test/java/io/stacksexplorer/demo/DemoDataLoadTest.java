package io.stacksexplorer.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.http.ApiServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's start-up load ({@link DemoDataLoader}) into a new H2 file, as
 * {@code java -jar api-server.jar} does it in an empty folder, not the in-memory database the other
 * tests use: once the server listens, the database holds the whole demo chain as {@link DemoChain}
 * and the generator count it (canonical blocks and transactions, pending mempool transactions), and
 * {@code /extended/v2/blocks/latest} is its tip. A faster load must keep all of it.
 */
class DemoDataLoadTest {

    @TempDir
    Path folder;

    @Test
    void aNewH2FileHoldsTheWholeDemoChainWhenTheServerListens() throws SQLException {
        DemoChain chain = DemoChain.generate(DemoChain.DEFAULT_SEED);
        DemoChain.Summary expected = chain.summary();
        Map<String, Object> props = new HashMap<>(
                StorageSettings.properties(Map.of("H2_FILE", folder.resolve("stacks-explorer").toString())));
        props.put("demo-data.enabled", true);
        props.put("micronaut.server.port", -1);
        try (ApiServer api = ApiServer.start(props)) {
            DataSource pool = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
            try (Connection c = pool.getConnection()) {
                assertEquals(expected.blockCount(), count(c, "SELECT COUNT(*) FROM blocks WHERE canonical"));
                assertEquals(chain.generated().blocks(), expected.blockCount(), "the generator's canonical blocks");
                assertEquals(expected.txCount(),
                        count(c, "SELECT COUNT(*) FROM txs WHERE canonical AND microblock_canonical"));
                assertEquals(chain.generated().servedTransactions(), expected.txCount(),
                        "the generator's transactions and Bitcoin operations");
                assertEquals(expected.mempoolTxCount(), count(c, "SELECT COUNT(*) FROM mempool_txs WHERE NOT pruned"));
            }
            ApiServer.Answer latest = api.get("/extended/v2/blocks/latest");
            assertEquals(200, latest.status());
            assertEquals(expected.tipHeight(), latest.body().get("height").asLong());
            assertEquals(expected.tipBlockHash(), latest.body().get("hash").asText());
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
