package io.stacksexplorer.web;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.web.KeptAnswers.Dependency;
import io.stacksexplorer.web.KeptAnswers.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link KeptPages} rests on: a row of a position-numbered list (V10) keeps its position until
 * the change log says {@link Kind#POSITIONS} (a reorg, microblocks), so rows rendered by position
 * outlive every other commit. Payload by payload through the demo chain's log (microblocks, the fork),
 * the busiest contracts' log events and the busiest principals' histories are read by position
 * before and after each payload; whenever a position that was served before holds another row (or
 * none) afterwards, the follower ({@link AnswerInvalidation#follow}, on an instance whose thread never
 * starts) must have dropped a part kept under {@link Kind#POSITIONS}, and the positions' version
 * (chain_state, V210), which KeptPages joins a count and rows by, must have moved. And the part must
 * not be dropped for most payloads, or nothing would be kept.
 */
class PositionsInvalidationTest {

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void positionsMoveOnlyWhenTheChangeLogSaysSo(TestDatabase database) throws Exception {
        try (DemoLogFollower demo = new DemoLogFollower(database)) {
            List<String> log = demo.log;
            KeptAnswers kept = demo.kept;
            DataSource dataSource = DelegatingDataSource.unwrapDataSource(demo.context.getBean(DataSource.class));
            // The lists to watch, chosen once the chain has grown a little (the first microblocks come later).
            int start = 15;
            demo.ingest(0, start);
            demo.invalidation.follow();
            List<String> contracts;
            List<String> principals;
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                contracts = column(st, "SELECT contract_id FROM tx_events WHERE log_position IS NOT NULL"
                        + " GROUP BY contract_id ORDER BY COUNT(*) DESC, contract_id LIMIT 3");
                principals = column(st, "SELECT principal FROM principal_txs WHERE history_position IS NOT NULL"
                        + " GROUP BY principal ORDER BY COUNT(*) DESC, principal LIMIT 3");
            }
            assertTrue(!contracts.isEmpty() && !principals.isEmpty(), "the chain has position-numbered lists");
            Map<String, String> before = positions(dataSource, contracts, principals);
            long version = positionsVersion(dataSource);
            int keptThrough = 0;
            List<String> movers = new ArrayList<>();
            for (int line = start; line < log.size(); line++) {
                kept.keepPart("rows", kept.sequence(), List.of(Dependency.of(Kind.POSITIONS)), "rendered", 10);
                demo.ingest(line, line + 1);
                demo.invalidation.follow();
                Map<String, String> after = positions(dataSource, contracts, principals);
                long versionNow = positionsVersion(dataSource);
                boolean anyMoved = before.entrySet().stream()
                        .anyMatch(served -> !served.getValue().equals(after.get(served.getKey())));
                if (anyMoved) {
                    String payload = line + " " + log.get(line).split("\t", 4)[2];
                    movers.add(payload);
                    assertNull(kept.part("rows"), "line " + payload + " moved served positions and the change log"
                            + " did not say so");
                    assertTrue(versionNow > version, "line " + payload + " moved served positions and left the"
                            + " positions' version (V210) at " + version);
                } else if (kept.part("rows") != null) {
                    keptThrough++;
                }
                before = after;
                version = versionNow;
            }
            System.out.println("payloads that moved served positions: " + movers + "; that kept the rows: "
                    + keptThrough + " of " + (log.size() - start));
            assertTrue(movers.size() >= 2, "the demo log moves positions (microblocks settled, its fork): " + movers);
            assertTrue(keptThrough * 2 > log.size() - start, "most payloads keep the rows: " + keptThrough);
        }
    }

    /** chain_state's positions version (V210): what KeptPages joins a count and rows by. */
    private static long positionsVersion(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT positions_version FROM chain_state WHERE id = 1")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Each served position of the watched lists and the row at it. */
    private static Map<String, String> positions(DataSource dataSource, List<String> contracts, List<String> principals)
            throws SQLException {
        Map<String, String> rows = new HashMap<>();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (String contract : contracts) {
                read(st, "SELECT log_position, tx_id || ' ' || event_index || ' ' || index_block_hash FROM tx_events"
                        + " WHERE contract_id = '" + contract + "' AND log_position IS NOT NULL", "logs " + contract, rows);
            }
            for (String principal : principals) {
                read(st, "SELECT history_position, tx_id || ' ' || index_block_hash FROM principal_txs"
                        + " WHERE principal = '" + principal + "' AND history_position IS NOT NULL", "history " + principal, rows);
            }
        }
        return rows;
    }

    private static void read(Statement st, String sql, String list, Map<String, String> rows) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rows.put(list + " " + rs.getLong(1), rs.getString(2));
            }
        }
    }

    private static List<String> column(Statement st, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
