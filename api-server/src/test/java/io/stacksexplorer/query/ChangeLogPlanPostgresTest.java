package io.stacksexplorer.query;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The change log's one look-up by transaction on PostgreSQL (migration V203): whether a change
 * announced a transaction entering the mempool is answered through the partial index of the
 * mempool rows, under a generic plan too (the plan pgjdbc's server-prepared statements run), on a
 * log whose statistics say most rows are not mempool rows; the rows of other kinds are not indexed.
 */
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class ChangeLogPlanPostgresTest {

    private static final int ROWS = 30_000;

    @Test
    void enteredBeforeReadsThePartialIndexOfMempoolRowsUnderAGenericPlan() throws SQLException {
        Map<String, Object> props = TestDatabase.POSTGRES.freshProperties();
        props.put("stacks.event-observer.enabled", false);
        try (ApiServer server = ApiServer.start(props)) {
            try {
                DataSource dataSource = DelegatingDataSource.unwrapDataSource(server.context().getBean(DataSource.class));
                try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                    // A third mempool arrivals, the rest mined transactions and blocks, as a replay writes them:
                    // position 3k is transaction k entering the mempool, 3k + 1 the same transaction mined.
                    st.execute("INSERT INTO change_log (position, kind, index_block_hash, tx_id, recorded_at)"
                            + " SELECT g, CASE g % 3 WHEN 0 THEN 'mempool' WHEN 1 THEN 'tx' ELSE 'block' END,"
                            + " CASE WHEN g % 3 = 0 THEN NULL ELSE '0x' || md5('b' || g) || md5('c' || g) END,"
                            + " CASE WHEN g % 3 = 2 THEN NULL ELSE '0x' || md5('t' || (g / 3)) || md5('u' || (g / 3)) END, 0"
                            + " FROM generate_series(1, " + ROWS + ") g");
                    st.execute("ANALYZE change_log");

                    List<String> indexes = new ArrayList<>();
                    try (ResultSet rs = st.executeQuery("SELECT indexname, indexdef FROM pg_indexes"
                            + " WHERE schemaname = current_schema() AND tablename = 'change_log' ORDER BY indexname")) {
                        while (rs.next()) {
                            indexes.add(rs.getString(1) + ": " + rs.getString(2));
                        }
                    }
                    assertEquals(2, indexes.size(), indexes.toString());
                    assertTrue(indexes.get(0).startsWith("change_log_mempool_tx_idx: ")
                            && indexes.get(0).endsWith("WHERE ((kind)::text = 'mempool'::text)"), indexes.toString());
                    assertTrue(indexes.get(1).startsWith("change_log_pkey: "), indexes.toString());

                    st.execute("SET plan_cache_mode = force_generic_plan");
                    int n = 0;
                    StringBuilder prepared = new StringBuilder();
                    for (char ch : ChangeQueries.ENTERED_BEFORE.toCharArray()) {
                        prepared.append(ch == '?' ? "$" + (++n) : String.valueOf(ch));
                    }
                    st.execute("PREPARE entered(varchar, bigint) AS " + prepared);
                    StringBuilder plan = new StringBuilder();
                    try (ResultSet rs = st.executeQuery("EXPLAIN EXECUTE entered('0x00', " + ROWS + ")")) {
                        while (rs.next()) {
                            plan.append(rs.getString(1)).append('\n');
                        }
                    }
                    assertTrue(plan.toString().contains("change_log_mempool_tx_idx"), plan.toString());
                    assertFalse(plan.toString().contains("Seq Scan"), plan.toString());
                }

                ChangeQueries changes = server.context().getBean(ChangeQueries.class);
                String arrivedThenMined;
                String minedOnly;
                try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT (SELECT tx_id FROM change_log WHERE position = 3),"
                             + " (SELECT tx_id FROM change_log WHERE position = 1)")) {
                    rs.next();
                    arrivedThenMined = rs.getString(1);
                    minedOnly = rs.getString(2);
                }
                assertTrue(changes.enteredMempoolBefore(arrivedThenMined, 4), "announced at position 3");
                assertFalse(changes.enteredMempoolBefore(arrivedThenMined, 3), "not before its own arrival");
                assertFalse(changes.enteredMempoolBefore(minedOnly, ROWS), "mined without a mempool arrival");
            } finally {
                TestDatabase.dropSchemaOf(server.context());
            }
        }
    }
}
