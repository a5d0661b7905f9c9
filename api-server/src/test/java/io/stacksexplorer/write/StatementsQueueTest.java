package io.stacksexplorer.write;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.stacksexplorer.write.Table.BLOCKS;
import static io.stacksexplorer.write.Table.MEMPOOL_PRINCIPALS;
import static io.stacksexplorer.write.WriteStatement.reading;
import static io.stacksexplorer.write.WriteStatement.writing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queued rows of the write path wait until a statement declared on their table
 * ({@link WriteStatement}) runs, and then go in the order they were queued (on H2, with JDBC
 * batches; BatchedReplayEquivalence*Test compares whole replays, COPY on PostgreSQL included,
 * against one delivery per transaction). That every declaration names the tables of its SQL is
 * WriteStatementDeclarationTest.
 */
class StatementsQueueTest {

    private static final WriteStatement INSERT = MempoolWrites.INSERT_MEMPOOL_PRINCIPAL;
    private static final WriteStatement DELETE = MempoolWrites.DELETE_MEMPOOL_PRINCIPALS;
    private static final WriteStatement COUNT_OF_TX = reading(MEMPOOL_PRINCIPALS).sql(
            "SELECT COUNT(*) FROM mempool_principals WHERE tx_id = ?");
    private static final WriteStatement COUNT_BLOCKS = reading(BLOCKS).sql("SELECT COUNT(*) FROM blocks");
    private static final WriteStatement INSERT_BLOCK = writing(BLOCKS).sql(
            "INSERT INTO blocks (index_block_hash) VALUES (?)");

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
    void writesOrderAgainstReadsAndWritesOfTheirTablesOnly() {
        assertTrue(WriteStatement.mustPrecede(INSERT, COUNT_OF_TX), "a write before a read of its table");
        assertTrue(WriteStatement.mustPrecede(COUNT_OF_TX, DELETE), "a read before a write of its table");
        assertTrue(WriteStatement.mustPrecede(INSERT, DELETE), "two writes of one table");
        assertFalse(WriteStatement.mustPrecede(COUNT_OF_TX, COUNT_OF_TX), "two reads");
        assertFalse(WriteStatement.mustPrecede(INSERT, COUNT_BLOCKS), "another table");
        WriteStatement ofTwoTables = MempoolWrites.MEMPOOL_KNOWN_OR_MINED_BY_LOG2_PLACES.get(0);
        assertTrue(WriteStatement.mustPrecede(WriteSql.INSERT_TX, ofTwoTables), "a statement of two tables");
        assertTrue(WriteStatement.mustPrecede(MempoolWrites.INSERT_MEMPOOL_TX_STATE, ofTwoTables), "orders against each");
    }

    @Test
    void rowsWaitUntilAStatementOnTheirTableRuns() throws SQLException {
        sql.addBatch(INSERT, "SP1", "0xa", 1L);
        sql.query(COUNT_BLOCKS, rs -> rs.getLong(1));
        assertEquals(0, countOutsideTheQueue("0xa"), "a read of another table sends nothing");
        assertEquals(List.of(1L), sql.query(COUNT_OF_TX, rs -> rs.getLong(1), "0xa"), "a read of the table sees the row");
        assertEquals(1, countOutsideTheQueue("0xa"));
    }

    @Test
    void aStatementRunsAfterTheRowsQueuedBeforeItForItsTable() throws SQLException {
        // Mined (its principals deleted), then returned by a reorg (inserted again) in one transaction.
        sql.addBatch(INSERT, "SP1", "0xa", 1L);
        sql.addBatch(DELETE, "0xa");
        sql.update(writing(MEMPOOL_PRINCIPALS).sql(
                "INSERT INTO mempool_principals (principal, tx_id, receipt_time) VALUES ('SP1', '0xa', 2)"));
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
        sql.addBatch(INSERT_BLOCK, "0xb1");
        sql.finish();
        assertEquals(0, countOutsideTheQueue("0xa"));
        try (Statement st = connection.createStatement(); var rs = st.executeQuery("SELECT COUNT(*) FROM blocks")) {
            rs.next();
            assertEquals(1, rs.getLong(1));
        }
    }

    @Test
    void poxHeightsAreSetOnlyWhenTheyDifferFromWhatThisWriterLastSet() throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE chain_state (id INT, pox_v1_unlock_height BIGINT, pox_v2_unlock_height BIGINT,"
                    + " pox_v3_unlock_height BIGINT)");
            st.execute("INSERT INTO chain_state VALUES (1, NULL, NULL, NULL)");
        }
        CommittedCounters committed = new CommittedCounters();
        try (Statements first = new Statements(connection, committed)) {
            first.setPoxUnlockHeights(new PoxUnlockHeights(10L, null, null));
            first.setPoxUnlockHeights(new PoxUnlockHeights(10L, null, null));
            assertEquals(1, first.rowsWritten(), "set once in the transaction");
            first.finish();
            connection.commit();
            first.afterCommit();
        }
        try (Statements second = new Statements(connection, committed)) {
            second.setPoxUnlockHeights(new PoxUnlockHeights(10L, null, null));
            second.setPoxUnlockHeights(PoxUnlockHeights.NONE);
            assertEquals(0, second.rowsWritten(), "held already, as the last commit left it");
            second.setPoxUnlockHeights(new PoxUnlockHeights(null, 20L, null));
            assertEquals(1, second.rowsWritten());
            second.finish();
        }
        try (Statement st = connection.createStatement(); var rs = st.executeQuery(
                "SELECT pox_v1_unlock_height, pox_v2_unlock_height, pox_v3_unlock_height FROM chain_state")) {
            rs.next();
            assertEquals(10L, rs.getLong(1));
            assertEquals(20L, rs.getLong(2));
            assertEquals(null, rs.getObject(3));
        }
        committed.clear();
        try (Statements afterClear = new Statements(connection, committed)) {
            afterClear.setPoxUnlockHeights(new PoxUnlockHeights(10L, null, null));
            assertEquals(1, afterClear.rowsWritten(), "not known once cleared (a failed transaction, a rebuild)");
        }
    }

    @Test
    void anOverwritingRowReplacesTheOneItQueuedBeforeAndGoesAfterWhatWasQueuedSince() throws SQLException {
        createTipTable();
        sql.addOverwritingBatch(WriteSql.SET_TIP, 1L, "0xb1", "0xi1", 100L);
        sql.addBatch(WriteSql.BUMP_MEMPOOL_VERSION);
        sql.addOverwritingBatch(WriteSql.SET_TIP, 2L, "0xb2", "0xi2", 101L);
        sql.addOverwritingBatch(WriteSql.SET_TIP, 3L, "0xb3", "0xi3", 101L);
        assertEquals(2, sql.rowsWritten(), "one tip and the version bump are queued");
        sql.finish();
        try (Statement st = connection.createStatement(); var rs = st.executeQuery(
                "SELECT block_height, block_hash, index_block_hash, burn_block_height, microblock_hash,"
                        + " mempool_version FROM chain_state")) {
            rs.next();
            assertEquals(3L, rs.getLong(1));
            assertEquals("0xb3", rs.getString(2));
            assertEquals("0xi3", rs.getString(3));
            assertEquals(101L, rs.getLong(4));
            assertEquals(null, rs.getObject(5), "the tip's microblock is reset");
            assertEquals(1L, rs.getLong(6));
        }
    }

    @Test
    void anOverwritingRowAlreadySentIsNotTakenBack() throws SQLException {
        createTipTable();
        sql.addOverwritingBatch(WriteSql.SET_TIP, 1L, "0xb1", "0xi1", 100L);
        assertEquals(List.of(1L), sql.query(WriteSql.TIP, rs -> rs.getLong(1)), "a read of chain_state sends it");
        sql.addOverwritingBatch(WriteSql.SET_TIP, 2L, "0xb2", "0xi2", 100L);
        assertEquals(2, sql.rowsWritten(), "the sent row still counts");
        sql.finish();
        assertEquals(List.of(2L), sql.query(WriteSql.TIP, rs -> rs.getLong(1)));
    }

    /** The columns of chain_state that the tip's statements name, with a microblock on the tip. */
    private void createTipTable() throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE chain_state (id INT, block_height BIGINT, block_hash VARCHAR(66),"
                    + " index_block_hash VARCHAR(66), burn_block_height BIGINT, microblock_hash VARCHAR(66),"
                    + " microblock_sequence INT, mempool_version BIGINT)");
            st.execute("INSERT INTO chain_state VALUES (1, NULL, NULL, NULL, NULL, '0xm', 3, 0)");
        }
    }

    /** Rows of {@code txId} in the table, read past {@link Statements} (so nothing queued is sent). */
    private long countOutsideTheQueue(String txId) throws SQLException {
        try (var ps = connection.prepareStatement(COUNT_OF_TX.sql())) {
            ps.setString(1, txId);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
