package io.stacksexplorer.write;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Queued rows of the write path wait until a statement names their table, and then go in the
 * order they were queued (on H2, with JDBC batches; BatchedReplayEquivalence*Test compares whole
 * replays, COPY on PostgreSQL included, against one delivery per transaction).
 */
class StatementsQueueTest {

    private static final String INSERT = WriteSql.INSERT_MEMPOOL_PRINCIPAL;
    private static final String DELETE = WriteSql.DELETE_MEMPOOL_PRINCIPALS;
    private static final String COUNT_OF_TX = "SELECT COUNT(*) FROM mempool_principals WHERE tx_id = ?";

    private Connection connection;
    private Statements sql;

    @BeforeEach
    void openDatabase() throws SQLException {
        connection = DriverManager.getConnection("jdbc:h2:mem:queue" + System.nanoTime());
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE mempool_principals (principal VARCHAR(160), tx_id VARCHAR(66), receipt_time BIGINT)");
            st.execute("CREATE TABLE blocks (index_block_hash VARCHAR(66))");
        }
        connection.setAutoCommit(false);
        sql = new Statements(connection, new CommittedCounters());
    }

    @AfterEach
    void closeDatabase() throws SQLException {
        sql.close();
        connection.close();
    }

    @Test
    void tablesAreFoundByWholeNameOnly() {
        assertEquals(Set.of("txs"), Statements.tablesNamed(WriteSql.INSERT_TX));
        assertEquals(Set.of("principal_txs"), Statements.tablesNamed(WriteSql.INSERT_PRINCIPAL_TX));
        assertEquals(Set.of("mempool_txs"), Statements.tablesNamed(WriteSql.INSERT_MEMPOOL_TX_STATE));
        assertEquals(Set.of("chain_state"), Statements.tablesNamed(WriteSql.SET_TIP));
        assertEquals(Set.of("node_events"), Statements.tablesNamed(WriteSql.INSERT_NODE_EVENT_IF_NEW));
    }

    @Test
    void rowsWaitUntilAStatementNamesTheirTable() throws SQLException {
        sql.addBatch(INSERT, "SP1", "0xa", 1L);
        sql.query("SELECT COUNT(*) FROM blocks", rs -> rs.getLong(1));
        assertEquals(0, countOutsideTheQueue("0xa"), "a read of another table sends nothing");
        assertEquals(List.of(1L), sql.query(COUNT_OF_TX, rs -> rs.getLong(1), "0xa"), "a read of the table sees the row");
        assertEquals(1, countOutsideTheQueue("0xa"));
    }

    @Test
    void aStatementRunsAfterTheRowsQueuedBeforeItForItsTable() throws SQLException {
        // Mined (its principals deleted), then returned by a reorg (inserted again) in one transaction.
        sql.addBatch(INSERT, "SP1", "0xa", 1L);
        sql.addBatch(DELETE, "0xa");
        sql.update("INSERT INTO mempool_principals (principal, tx_id, receipt_time) VALUES ('SP1', '0xa', 2)");
        assertEquals(List.of(1L), sql.query(COUNT_OF_TX, rs -> rs.getLong(1), "0xa"));
    }

    @Test
    void aBatchRunsAfterTheBatchesQueuedBeforeItForItsTableNotAfterLaterOnes() throws SQLException {
        sql.addBatch(DELETE, "0xa");
        sql.addBatch(INSERT, "SP1", "0xa", 1L);
        sql.executeBatch(INSERT);
        assertEquals(List.of(1L), sql.query(COUNT_OF_TX, rs -> rs.getLong(1), "0xa"),
                "the delete queued first ran first");

        sql.addBatch(INSERT, "SP2", "0xb", 1L);
        sql.addBatch(DELETE, "0xb");
        sql.executeBatch(DELETE);
        assertEquals(List.of(0L), sql.query(COUNT_OF_TX, rs -> rs.getLong(1), "0xb"),
                "the insert queued first ran before the delete");
    }

    @Test
    void finishSendsEverythingInQueueOrder() throws SQLException {
        sql.addBatch(INSERT, "SP1", "0xa", 1L);
        sql.addBatch(DELETE, "0xa");
        sql.addBatch("INSERT INTO blocks (index_block_hash) VALUES (?)", "0xb1");
        sql.finish();
        assertEquals(0, countOutsideTheQueue("0xa"));
        try (Statement st = connection.createStatement(); var rs = st.executeQuery("SELECT COUNT(*) FROM blocks")) {
            rs.next();
            assertEquals(1, rs.getLong(1));
        }
    }

    /** Rows of {@code txId} in the table, read past {@link Statements} (so nothing queued is sent). */
    private long countOutsideTheQueue(String txId) throws SQLException {
        try (var ps = connection.prepareStatement(COUNT_OF_TX)) {
            ps.setString(1, txId);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
