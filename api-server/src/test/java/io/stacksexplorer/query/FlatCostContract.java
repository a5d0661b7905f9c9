package io.stacksexplorer.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A page of the cursor-paged routes reads the same number of rows at any depth: every statement a
 * page sends ({@link ChainOrderStore}, {@link AddressStore#HISTORY_PAGE}, {@link MempoolStore}) is
 * run under the database's own EXPLAIN ANALYZE at the newest and at the oldest end of the demo
 * chain's hot address (about a thousand transactions) and busiest contract, and the rows its scans
 * read are counted: H2's {@code scanCount}, PostgreSQL's actual rows plus rows removed by filters.
 * At either end they must stay within a bound that does not depend on the list's length (a page,
 * its neighbours and one block's rows), below the list itself. No timings: a count. (It found the
 * first cut of the position lookups reading the principal's history down to the row on H2.)
 */
public abstract class FlatCostContract {

    protected abstract TestDatabase database();

    private static final DemoChain DEMO = DemoChain.generate(DemoChain.DEFAULT_SEED);
    private static final Pattern H2_SCANS = Pattern.compile("scanCount: (\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PAGE = 21;

    @Test
    void pagesReadTheSameRowsAtAnyDepth() throws SQLException {
        try (ApiServer api = ApiServer.start(database())) {
            DEMO.blocks().forEach(api.writer()::writeBlock);
            DataSource ds = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
            String hot = DEMO.summary().hotAddresses().get(0);
            String contract = DEMO.summary().contractIdWithLogs();
            ChainOrderStore order = api.context().getBean(ChainOrderStore.class);
            long total = order.historyCount(hot);
            long logs = order.logTip(contract)[1];
            assertTrue(total > 500 && logs > 100, "long lists: " + total + " transactions, " + logs + " logs");
            ChainKey newestTx = order.historyKeyAt(hot, total).orElseThrow();
            ChainKey newestLog = order.logKeyAt(contract, logs).orElseThrow();
            // The oldest rows outside block 1, which holds the genesis block's thousands of mint events:
            // a lookup through a block's key reads that block's rows, whatever its depth.
            ChainKey oldestTx = oldestAfterGenesis(p -> order.historyKeyAt(hot, p).orElseThrow());
            ChainKey oldestLog = oldestAfterGenesis(p -> order.logKeyAt(contract, p).orElseThrow());
            // A page and its neighbours; a lookup through a block's key also reads that block's rows.
            int bound = 10 * PAGE; // a history row also joins its transaction and, for a call, the deployment
            int txBlocks = bound + blockRows(newestTx) + blockRows(oldestTx);
            int logBlocks = bound + blockRows(newestLog) + blockRows(oldestLog);

            List<String> report = new ArrayList<>();
            check(ds, report, bound, total, "AddressStore.HISTORY_PAGE", AddressStore.HISTORY_PAGE,
                    new Object[]{hot, hot, 0L, total, 0L, total, (long) PAGE},
                    new Object[]{hot, hot, 0L, (long) PAGE, 0L, (long) PAGE, (long) PAGE});
            check(ds, report, txBlocks, total, "ChainOrderStore.HISTORY_POSITION_AT", ChainOrderStore.HISTORY_POSITION_AT,
                    new Object[]{newestTx.blockHeight(), newestTx.blockHeight(), hot, newestTx.microblockSequence(),
                            newestTx.txIndex()},
                    new Object[]{oldestTx.blockHeight(), oldestTx.blockHeight(), hot, oldestTx.microblockSequence(),
                            oldestTx.txIndex()});
            check(ds, report, bound, total, "ChainOrderStore.HISTORY_KEY_AT", ChainOrderStore.HISTORY_KEY_AT,
                    new Object[]{hot, total}, new Object[]{hot, 1L});
            check(ds, report, bound, logs, "ChainOrderStore.LOG_ROWS", ChainOrderStore.LOG_ROWS,
                    new Object[]{contract, logs, logs - PAGE}, new Object[]{contract, (long) PAGE, 0L});
            check(ds, report, logBlocks, logs, "ChainOrderStore.LOG_POSITION_AT", ChainOrderStore.LOG_POSITION_AT,
                    new Object[]{newestLog.blockHeight(), newestLog.blockHeight(), contract,
                            newestLog.microblockSequence(), newestLog.txIndex(), newestLog.eventIndex()},
                    new Object[]{oldestLog.blockHeight(), oldestLog.blockHeight(), contract,
                            oldestLog.microblockSequence(), oldestLog.txIndex(), oldestLog.eventIndex()});
            check(ds, report, bound, logs, "ChainOrderStore.LOG_KEY_AT", ChainOrderStore.LOG_KEY_AT,
                    new Object[]{contract, logs}, new Object[]{contract, 1L});
            System.out.printf("flat cost [%s], rows read newest / oldest (%d transactions, %d logs): %s%n",
                    database(), total, logs, String.join(", ", report));
        }
    }

    /** The rows (transactions and events) of the canonical block at the key's height. */
    private static int blockRows(ChainKey key) {
        return DEMO.blocks().stream().filter(b -> b.height() == key.blockHeight())
                .mapToInt(b -> b.transactions().size() + b.transactions().stream().mapToInt(t -> t.events().size()).sum())
                .sum();
    }

    private static ChainKey oldestAfterGenesis(java.util.function.LongFunction<ChainKey> keyAt) {
        for (long position = 1; ; position++) {
            ChainKey key = keyAt.apply(position);
            if (key.blockHeight() > 1) {
                return key;
            }
        }
    }

    private void check(DataSource ds, List<String> report, int bound, long length, String name, String sql,
                       Object[] newest, Object[] oldest) throws SQLException {
        long top = rowsRead(ds, sql, newest);
        long deep = rowsRead(ds, sql, oldest);
        report.add(name + " " + top + " / " + deep + " (bound " + bound + ")");
        assertTrue(deep <= bound && top <= bound && bound < length,
                name + " reads " + top + " rows at the newest end and " + deep + " at the oldest (bound " + bound
                        + ", list " + length + ")");
    }

    private long rowsRead(DataSource ds, String sql, Object[] params) throws SQLException {
        boolean h2 = database() == TestDatabase.H2;
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement((h2 ? "EXPLAIN ANALYZE " : "EXPLAIN (ANALYZE, FORMAT JSON) ") + sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            if (h2) {
                long rows = 0;
                Matcher m = H2_SCANS.matcher(plan);
                while (m.find()) {
                    rows += Long.parseLong(m.group(1));
                }
                return rows;
            }
            try {
                return scanned(JSON.readTree(plan.toString()).get(0).get("Plan"));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(plan.toString(), e);
            }
        }
    }

    /** Rows PostgreSQL's scan nodes returned or filtered away, over all their loops. */
    private static long scanned(JsonNode node) {
        long rows = 0;
        if (node.path("Node Type").asText().contains("Scan")) {
            long loops = Math.max(1, node.path("Actual Loops").asLong());
            rows += loops * (node.path("Actual Rows").asLong() + node.path("Rows Removed by Filter").asLong()
                    + node.path("Rows Removed by Index Recheck").asLong());
        }
        for (JsonNode child : node.path("Plans")) {
            rows += scanned(child);
        }
        return rows;
    }
}
