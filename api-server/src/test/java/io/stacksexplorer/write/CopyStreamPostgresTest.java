package io.stacksexplorer.write;

import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The COPY stream of the write path on a real PostgreSQL: rows queued over many chunks arrive whole
 * and in order, and a COPY that the server rejects half-way leaves the connection usable once the
 * transaction is rolled back (the replay then reports the error instead of a broken protocol state).
 */
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class CopyStreamPostgresTest {

    private static final WriteStatement INSERT = MempoolWrites.INSERT_MEMPOOL_PRINCIPAL;

    private final String schema = "copy_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private Connection connection;

    @BeforeEach
    void openSchema() throws SQLException {
        connection = TestDatabase.postgresConnectionInNewSchema(schema);
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE mempool_principals (principal VARCHAR(160), tx_id VARCHAR(66), receipt_time BIGINT)");
        }
        connection.setAutoCommit(false);
    }

    @AfterEach
    void dropSchema() throws SQLException {
        TestDatabase.dropSchemaAndClose(connection, schema);
    }

    @Test
    void rowsOfManyChunksArriveWholeAndInOrder() throws SQLException {
        int rows = 20_000;
        try (Statements sql = new Statements(connection, new CommittedCounters())) {
            for (int i = 0; i < rows; i++) {
                sql.addBatch(INSERT, "SP" + "Z".repeat(30) + i, "0x" + String.format("%064x", i), (long) i);
            }
            assertEquals(rows, sql.executeBatch(INSERT).length);
        }
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(receipt_time), MIN(tx_id), MAX(tx_id),"
                     + " COUNT(*) FILTER (WHERE principal = 'SP' || repeat('Z', 30) || receipt_time)"
                     + " FROM mempool_principals")) {
            assertTrue(rs.next());
            assertEquals(rows, rs.getLong(1));
            assertEquals((long) rows * (rows - 1) / 2, rs.getLong(2));
            assertEquals("0x" + "0".repeat(64), rs.getString(3));
            assertEquals("0x" + String.format("%064x", rows - 1), rs.getString(4));
            assertEquals(rows, rs.getLong(5), "every row's columns stayed together");
        }
    }

    @Test
    void aRejectedCopyLeavesAUsableConnection() throws SQLException {
        try (Statements sql = new Statements(connection, new CommittedCounters())) {
            for (int i = 0; i < 10_000; i++) {
                // Row 5,000 does not fit the column: the server stops the COPY in a later chunk.
                sql.addBatch(INSERT, "SP1", i == 5_000 ? "0x" + "f".repeat(100) : "0xab", (long) i);
            }
            SQLException rejected = assertThrows(SQLException.class, () -> sql.executeBatch(INSERT));
            assertTrue(rejected.getMessage().contains("too long"), rejected.getMessage());
        }
        connection.rollback();
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM mempool_principals")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getLong(1), "nothing of the rejected COPY stays");
        }
    }
}
