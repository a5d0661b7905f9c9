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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On PostgreSQL every text column of the schema compares and sorts by its bytes (migration V204):
 * cheaper than the database locale's collation for keys that are all ASCII, the same order as
 * H2's, and one collation for the whole schema, since PostgreSQL refuses to compare two columns of
 * different collations. A later migration that adds a text column without {@code COLLATE "C"}
 * fails here.
 */
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class TextCollationPostgresTest {

    @Test
    void everyTextColumnComparesByItsBytes() throws SQLException {
        Map<String, Object> props = TestDatabase.POSTGRES.freshProperties();
        props.put("stacks.event-observer.enabled", false);
        try (ApiServer server = ApiServer.start(props)) {
            DataSource dataSource = DelegatingDataSource.unwrapDataSource(server.context().getBean(DataSource.class));
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                List<String> textColumns = new ArrayList<>();
                List<String> otherCollation = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("""
                        SELECT c.relname || '.' || a.attname, co.collname
                        FROM pg_attribute a
                        JOIN pg_class c ON c.oid = a.attrelid AND c.relkind IN ('r', 'p')
                        JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
                        JOIN pg_collation co ON co.oid = a.attcollation
                        WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relname <> 'flyway_schema_history'
                        ORDER BY 1""")) {
                    while (rs.next()) {
                        textColumns.add(rs.getString(1));
                        if (!"C".equals(rs.getString(2))) {
                            otherCollation.add(rs.getString(1) + " " + rs.getString(2));
                        }
                    }
                }
                assertTrue(textColumns.size() >= 50, "the schema's text columns were found: " + textColumns);
                assertTrue(textColumns.contains("txs.tx_id") && textColumns.contains("principal_txs.principal"),
                        textColumns.toString());
                assertEquals(List.of(), otherCollation, "text columns not compared by their bytes");
                try (ResultSet rs = st.executeQuery("""
                        SELECT attcompression FROM pg_attribute
                        WHERE attrelid = 'node_events'::regclass AND attname = 'payload'""")) {
                    assertTrue(rs.next());
                    assertEquals("l", rs.getString(1), "the stored payloads keep V101's lz4 compression");
                }

                // Byte order, whatever the database's locale: upper case before lower case, '-' before
                // digits, as H2 orders them.
                st.execute("INSERT INTO change_log (position, kind, tx_id, recorded_at) VALUES"
                        + " (1, 'mempool', 'b', 0), (2, 'mempool', 'B', 0), (3, 'mempool', 'a-1', 0),"
                        + " (4, 'mempool', 'a1', 0), (5, 'mempool', 'A', 0)");
                List<String> ordered = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SELECT tx_id FROM change_log ORDER BY tx_id")) {
                    while (rs.next()) {
                        ordered.add(rs.getString(1));
                    }
                }
                assertEquals(List.of("A", "B", "a-1", "a1", "b"), ordered);
            }
        }
    }
}
