package io.stacksexplorer.write;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.stacksexplorer.write.WriteStatement.writing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The keys the write path wrote ({@link WrittenKeys}): once the tables of a kind were seen empty,
 * the look-ups of new transactions, payloads and blocks ask the database only for keys the writer
 * may have written. Each test adds rows behind the writer's back after the tables were seen
 * empty: a look-up that does not see them was not sent. BatchedReplayEquivalence*Test and the
 * peer-answer tests replay whole logs with the filters on.
 */
abstract class WrittenKeysContract {

    private static final String WRITTEN = "0x" + "a".repeat(64);
    private static final String BEHIND_THE_BACK = "0x" + "b".repeat(64);
    private static final String SENDER = "SP000000000000000000002Q6VF78";

    private Connection connection;
    private WrittenKeys keys;
    private Statements sql;

    /** A connection to a new, migrated, empty database of the variant, in autocommit mode. */
    abstract Connection openMigratedDatabase() throws SQLException;

    abstract void dropDatabase(Connection connection) throws SQLException;

    @BeforeEach
    void openDatabase() throws SQLException {
        connection = openMigratedDatabase();
        connection.setAutoCommit(false);
        keys = new WrittenKeys();
        sql = new Statements(connection, new CommittedCounters(), new PendingMempool(), keys);
    }

    @AfterEach
    void closeDatabase() throws SQLException {
        sql.close();
        connection.rollback();
        dropDatabase(connection);
    }

    @Test
    void idsNeverWrittenAreNotAskedOnceTheTablesWereSeenEmpty() throws SQLException {
        assertEquals(Set.of(), sql.announcements().mempoolKnownOrMined(List.of(WRITTEN)).known(), "empty tables");
        assertTrue(keys.complete(WrittenKeys.Kind.TX_IDS));

        sql.update(MempoolWrites.INSERT_MEMPOOL_TX, WRITTEN, "0x00", 1L, "token_transfer", 0L, BigInteger.ONE, SENDER,
                null, null, 5L, null);
        MigratedDatabases.insertMempoolRow(connection, BEHIND_THE_BACK);

        Announcements.MempoolKnowledge knowledge = sql.announcements().mempoolKnownOrMined(List.of(WRITTEN, BEHIND_THE_BACK));
        assertEquals(Set.of(WRITTEN), knowledge.known(), "written: asked; never written: not asked");
    }

    @Test
    void tablesHoldingRowsWhenFirstAskedAreAlwaysAsked() throws SQLException {
        MigratedDatabases.insertMempoolRow(connection, BEHIND_THE_BACK);

        assertEquals(Set.of(BEHIND_THE_BACK), sql.announcements().mempoolKnownOrMined(List.of(BEHIND_THE_BACK)).known());
        assertFalse(keys.complete(WrittenKeys.Kind.TX_IDS));
    }

    @Test
    void anInsertNotDeclaredMakesItsKindIncomplete() throws SQLException {
        sql.announcements().mempoolKnownOrMined(List.of(WRITTEN));
        sql.announcements().expectBlocks(List.of(WRITTEN));
        WriteStatement undeclared = writing(Table.MEMPOOL_TXS).sql("""
                INSERT INTO mempool_txs (tx_id, raw_tx, receipt_time, tx_status, pruned, tx_type, nonce, fee_rate,
                    sender_address, receipt_block_height)
                VALUES (?, '0x00', 1, 'pending', FALSE, 'token_transfer', 0, 1, 'SP000000000000000000002Q6VF78', 1)""");

        sql.update(undeclared, WRITTEN);

        assertFalse(keys.complete(WrittenKeys.Kind.TX_IDS));
        assertEquals(Set.of(WRITTEN), sql.announcements().mempoolKnownOrMined(List.of(WRITTEN)).known(), "asked");
        assertTrue(keys.complete(WrittenKeys.Kind.BLOCKS), "other kinds stay complete");
    }

    @Test
    void updatesAndDeletesKeepTheKindComplete() throws SQLException {
        sql.announcements().mempoolKnownOrMined(List.of(WRITTEN));

        sql.update(MempoolWrites.SET_MEMPOOL_STATE, true, "pending", WRITTEN);
        sql.update(WriteSql.SET_TXS_CANONICAL, false, WRITTEN);
        sql.update(WriteSql.DELETE_TXS_OF, WRITTEN);

        assertTrue(keys.complete(WrittenKeys.Kind.TX_IDS));
    }

    @Test
    void moreKeysThanTheFilterHoldsMakeItsKindIncomplete() throws SQLException {
        keys = new WrittenKeys(1);
        sql.close();
        sql = new Statements(connection, new CommittedCounters(), new PendingMempool(), keys);
        sql.announcements().mempoolKnownOrMined(List.of(WRITTEN));

        sql.update(MempoolWrites.INSERT_MEMPOOL_TX, WRITTEN, "0x00", 1L, "token_transfer", 0L, BigInteger.ONE, SENDER,
                null, null, 5L, null);
        assertTrue(keys.complete(WrittenKeys.Kind.TX_IDS), "one key: held");
        sql.update(MempoolWrites.INSERT_MEMPOOL_TX, BEHIND_THE_BACK, "0x00", 1L, "token_transfer", 0L, BigInteger.ONE,
                SENDER, null, null, 5L, null);

        assertFalse(keys.complete(WrittenKeys.Kind.TX_IDS), "two: every look-up asks again");
    }

    @Test
    void mempoolRowsHeldBackAndWrittenAtOnceAreNoted() throws SQLException {
        sql.announcements().mempoolKnownOrMined(List.of(WRITTEN));
        TxFacts facts = new TxFacts("token_transfer", 0, BigInteger.ONE, SENDER, false, null, null, null, null);
        sql.mempool().unwritten().add(WRITTEN, new NewMempoolTransaction("0x00", 1L, WRITTEN, facts), facts, 1L);

        // PostgreSQL: one statement over arrays (the caller notes the ids); H2: a row each.
        sql.mempool().unwritten().flush(sql);
        sql.executeAllBatches();

        assertEquals(Set.of(WRITTEN), sql.announcements().mempoolKnownOrMined(List.of(WRITTEN)).known());
    }

    @Test
    void payloadsAndBlocksNeverWrittenAreNotAsked() throws SQLException {
        RawPayload written = RawPayload.received("/new_burn_block", "{\"burn_block_height\":1}", 1);
        RawPayload behindTheBack = RawPayload.received("/new_burn_block", "{\"burn_block_height\":2}", 2);
        sql.announcements().expectPayloads(List.of(RawPayload.received("/new_burn_block", "{}", 0).payloadHash()));
        sql.announcements().expectBlocks(List.of("0x" + "c".repeat(64)));
        assertTrue(keys.complete(WrittenKeys.Kind.PAYLOAD_HASHES));
        assertTrue(keys.complete(WrittenKeys.Kind.BLOCKS));

        sql.update(WriteSql.INSERT_NODE_EVENT, 1L, written.path(), written.payloadHash(), written.body());
        sql.update(WriteSql.INSERT_BLOCK, blockRow(WRITTEN));
        try (PreparedStatement ps = connection.prepareStatement(WriteSql.INSERT_NODE_EVENT.sql())) {
            Statements.bind(ps, new Object[]{2L, behindTheBack.path(), behindTheBack.payloadHash(),
                    behindTheBack.body()});
            ps.executeUpdate();
        }
        try (PreparedStatement ps = connection.prepareStatement(WriteSql.INSERT_BLOCK.sql())) {
            Statements.bind(ps, blockRow(BEHIND_THE_BACK));
            ps.executeUpdate();
        }

        sql.announcements().expectPayloads(List.of(written.payloadHash(), behindTheBack.payloadHash()));
        sql.announcements().expectBlocks(List.of(BEHIND_THE_BACK));
        assertEquals(Boolean.FALSE, sql.announcements().storeNewPayload(written), "written: found stored");
        assertEquals(Boolean.TRUE, sql.announcements().storeNewPayload(behindTheBack), "never written: not asked");
        assertTrue(sql.announcements().knownAbsentBlock(BEHIND_THE_BACK), "never written: not asked");
    }

    @Test
    void countersNeverWrittenAreNotAsked() throws SQLException {
        String written = SENDER;
        String behindTheBack = "SP3E6A1SCPH4XFQPW0MCPYMP0BQEMDX8A7RAJ4VD2";
        sql.positions().preload(Positions.Kind.HISTORY, List.of());
        assertTrue(keys.complete(WrittenKeys.Kind.PRINCIPAL_COUNTERS));

        Counters.set(sql, WriteSql.SET_PRINCIPAL_COUNT, WriteSql.SET_PRINCIPAL_COUNTS_POSTGRESQL,
                WriteSql.INSERT_PRINCIPAL_COUNT, List.of(Map.entry(written, 7L)));
        sql.executeAllBatches();
        try (PreparedStatement ps = connection.prepareStatement(
                "INSERT INTO principal_stats (principal, tx_count) VALUES (?, 5)")) {
            ps.setString(1, behindTheBack);
            ps.executeUpdate();
        }

        assertEquals(8L, sql.positions().next(Positions.Kind.HISTORY, written), "written: asked");
        assertEquals(1L, sql.positions().next(Positions.Kind.HISTORY, behindTheBack), "never written: not asked");
    }

    /**
     * Every statement of the write package whose SQL inserts into a table of a kind is one of the
     * kind's declared inserters: one that is not would make the kind incomplete at run time (the
     * look-ups would all go to the database again, correct but slower), unnoticed.
     */
    @Test
    void everyInsertIntoATrackedTableIsADeclaredInserter() throws IllegalAccessException {
        List<String> undeclared = new ArrayList<>();
        for (WriteStatement statement : declaredStatements()) {
            String text = statement.sql().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            for (WrittenKeys.Kind kind : WrittenKeys.Kind.values()) {
                for (Table table : kind.tables) {
                    if (text.contains("insert into " + table.name().toLowerCase(Locale.ROOT) + " ")
                            && !kind.inserters.containsKey(statement)) {
                        undeclared.add(kind + ": " + statement.sql());
                    }
                }
            }
        }
        assertEquals(List.of(), undeclared);
    }

    private static List<WriteStatement> declaredStatements() throws IllegalAccessException {
        List<WriteStatement> statements = new ArrayList<>();
        for (Class<?> declaring : List.of(WriteSql.class, ChangeLog.class)) {
            for (Field field : declaring.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                field.setAccessible(true);
                Object value = field.get(null);
                if (value instanceof WriteStatement statement) {
                    statements.add(statement);
                } else if (value instanceof List<?> list) {
                    for (Object element : list) {
                        if (element instanceof WriteStatement statement) {
                            statements.add(statement);
                        }
                    }
                }
            }
        }
        assertFalse(statements.isEmpty());
        return statements;
    }

    /** A canonical block in INSERT_BLOCK's parameter order. */
    private static Object[] blockRow(String hash) {
        return new Object[]{hash, hash, 1L, hash, hash, "0x", 0, 1L, 1L, hash, 1L, "0x", 1, 0L, 0L, 0L, 0L, 0L, true,
                1L};
    }
}
