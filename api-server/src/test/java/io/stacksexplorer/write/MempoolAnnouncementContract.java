package io.stacksexplorer.write;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mempool check of a replay's batch ({@link Statements#expectMempoolTransactions}): ids announced
 * before the transaction writes are answered from what the committed rows said when they were
 * announced, plus the canonical rows the transaction writes itself; a statement that could change
 * those answers (a flag flip, a transaction returned to the mempool) sends the check back to the
 * database. Each test changes the database behind the announcement's back, so that an answer shows
 * where it came from. BatchedReplayEquivalence*Test compares whole replays (reorgs and
 * microblocks included) with and without batches on both databases; the announcements of the
 * batch's payloads and blocks ({@link Statements#expectPayloads}, {@link Statements#expectBlocks})
 * are checked here too.
 */
abstract class MempoolAnnouncementContract {

    private static final String COMMITTED_PENDING = "0x" + "a".repeat(64);
    private static final String COMMITTED_MINED = "0x" + "b".repeat(64);
    private static final String NEW = "0x" + "c".repeat(64);
    private static final String NOT_ANNOUNCED = "0x" + "d".repeat(64);
    private static final String BLOCK = "0x" + "1".repeat(64);

    private Connection connection;
    private Statements sql;

    /** A connection to a new, migrated, empty database of the variant, in autocommit mode. */
    abstract Connection openMigratedDatabase() throws SQLException;

    abstract void dropDatabase(Connection connection) throws SQLException;

    @BeforeEach
    void openDatabase() throws SQLException {
        connection = openMigratedDatabase();
        MigratedDatabases.insertMempoolRow(connection, COMMITTED_PENDING);
        insertTxRowBehindTheWriter(COMMITTED_MINED);
        connection.setAutoCommit(false);
        sql = new Statements(connection, new CommittedCounters());
    }

    @AfterEach
    void closeDatabase() throws SQLException {
        sql.close();
        connection.rollback();
        dropDatabase(connection);
    }

    @Test
    void payloadsAndBlocksAnnouncedAreFoundStoredOrNot() throws SQLException {
        RawPayload storedBefore = RawPayload.received("/new_burn_block", "{\"burn_block_height\":1}", 1);
        RawPayload fresh = RawPayload.received("/new_burn_block", "{\"burn_block_height\":2}", 2);
        try (PreparedStatement ps = connection.prepareStatement(
                "INSERT INTO node_events (received_at, event_path, payload_hash, payload) VALUES (1, ?, ?, ?)")) {
            ps.setString(1, storedBefore.path());
            ps.setString(2, storedBefore.payloadHash());
            ps.setString(3, storedBefore.body());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = connection.prepareStatement(WriteSql.INSERT_BLOCK.sql())) {
            Statements.bind(ps, new Object[]{BLOCK, BLOCK, 1L, BLOCK, BLOCK, "0x", 0, 1L, 1L, BLOCK, 1L, "0x", 1,
                    0L, 0L, 0L, 0L, 0L, true, 1L});
            ps.executeUpdate();
        }
        String absentBlock = "0x" + "2".repeat(64);

        sql.announcements().expectPayloads(List.of(storedBefore.payloadHash(), fresh.payloadHash()));
        sql.announcements().expectBlocks(List.of(BLOCK, absentBlock));

        assertEquals(Boolean.FALSE, sql.announcements().storeNewPayload(storedBefore), "stored before: not again");
        assertEquals(Boolean.TRUE, sql.announcements().storeNewPayload(fresh), "new: queued");
        assertFalse(sql.announcements().knownAbsentBlock(BLOCK), "stored");
        assertTrue(sql.announcements().knownAbsentBlock(absentBlock), "not stored");
    }

    @Test
    void announcedIdsAreAnsweredFromTheCommittedRowsAsTheyWereWhenAnnounced() throws SQLException {
        sql.announcements().expectMempoolTransactions(List.of(COMMITTED_PENDING, COMMITTED_MINED, NEW));
        MigratedDatabases.insertMempoolRow(connection, NEW);
        MigratedDatabases.insertMempoolRow(connection, NOT_ANNOUNCED);

        Announcements.MempoolKnowledge knowledge =
                sql.announcements().mempoolKnownOrMined(List.of(COMMITTED_PENDING, COMMITTED_MINED, NEW, NOT_ANNOUNCED));

        assertEquals(Set.of(COMMITTED_PENDING, NOT_ANNOUNCED), knowledge.known(),
                "announced: as when announced (NEW was not there); not announced: asked");
        assertEquals(Set.of(COMMITTED_MINED), knowledge.mined());
    }

    @Test
    void theCanonicalRowsTheTransactionWritesAreMinedQueuedAndSent() throws SQLException {
        sql.announcements().expectMempoolTransactions(List.of(NEW));

        sql.addBatch(WriteSql.INSERT_TX, txRow(NEW));
        sql.announcements().queuedCanonicalTx(NEW);
        assertEquals(Set.of(NEW), sql.announcements().mempoolKnownOrMined(List.of(NEW)).mined(), "queued");

        sql.executeAllBatches();
        assertEquals(Set.of(NEW), sql.announcements().mempoolKnownOrMined(List.of(NEW)).mined(), "sent");
    }

    @Test
    void aFlagFlipOnTxsSendsTheCheckBackToTheDatabase() throws SQLException {
        sql.announcements().expectMempoolTransactions(List.of(COMMITTED_MINED));
        assertEquals(Set.of(COMMITTED_MINED), sql.announcements().mempoolKnownOrMined(List.of(COMMITTED_MINED)).mined());

        sql.update(WriteSql.SET_TXS_CANONICAL, false, BLOCK);

        assertEquals(Set.of(), sql.announcements().mempoolKnownOrMined(List.of(COMMITTED_MINED)).mined(), "orphaned: not mined");
    }

    @Test
    void aTransactionReturnedToTheMempoolSendsTheCheckBackToTheDatabase() throws SQLException {
        sql.announcements().expectMempoolTransactions(List.of(NEW));
        assertEquals(Set.of(), sql.announcements().mempoolKnownOrMined(List.of(NEW)).known());

        sql.update(MempoolWrites.INSERT_MEMPOOL_TX, NEW, "0x00", 1L, "token_transfer", 0L, BigInteger.ONE,
                "SP000000000000000000002Q6VF78", null, null, 5L, null);

        assertEquals(Set.of(NEW), sql.announcements().mempoolKnownOrMined(List.of(NEW)).known());
    }

    @Test
    void stateUpdatesKeepTheAnnouncement() throws SQLException {
        sql.announcements().expectMempoolTransactions(List.of(COMMITTED_PENDING, NEW));
        MigratedDatabases.insertMempoolRow(connection, NEW);

        sql.update(MempoolWrites.SET_MEMPOOL_STATE, true, "pending", COMMITTED_PENDING);

        assertEquals(Set.of(COMMITTED_PENDING), sql.announcements().mempoolKnownOrMined(List.of(COMMITTED_PENDING, NEW)).known(),
                "still answered from the announcement");
    }

    @Test
    void anAnnouncementAfterAWriteIsIgnored() throws SQLException {
        sql.addBatch(MempoolWrites.INSERT_MEMPOOL_PRINCIPAL, "SP000000000000000000002Q6VF78", NEW, 1L);
        sql.announcements().expectMempoolTransactions(List.of(NEW));
        MigratedDatabases.insertMempoolRow(connection, NEW);

        assertEquals(Set.of(NEW), sql.announcements().mempoolKnownOrMined(List.of(NEW)).known(), "asked");
    }

    private void insertTxRowBehindTheWriter(String txId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(WriteSql.INSERT_TX.sql())) {
            Statements.bind(ps, txRow(txId));
            ps.executeUpdate();
        }
    }

    /** A canonical, served anchor-block transaction of {@link #BLOCK}, in INSERT_TX's parameter order. */
    private static Object[] txRow(String txId) {
        return new Object[]{txId, BLOCK, BLOCK, 1L, 1L, 1L, 1L, 1L, BLOCK, BLOCK, 0, "0x", -1, false, true, true,
                "token_transfer", "success", 0L, BigInteger.ONE, "SP000000000000000000002Q6VF78", false, null, null,
                null, "0x00", "0x0703", 0, 0L, 0L, 0L, 0L, 0L, null};
    }
}
