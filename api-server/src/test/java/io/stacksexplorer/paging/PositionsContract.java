package io.stacksexplorer.paging;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMicroblocks;
import io.stacksexplorer.write.NewTransaction;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The position numbers behind depth-independent paging (migration V10) stay exact under every
 * kind of change the write path makes: blocks appended, forks that orphan and restore blocks,
 * microblock streams written on the tip, confirmed by the next anchor block or left behind by a
 * fork. After every write, for every principal and every contract: the served rows carry the
 * positions 1..n in chain order, rows not served carry none, and the counter (the API's
 * {@code total}) is n, the number of served rows.
 */
public abstract class PositionsContract {

    protected abstract TestDatabase database();

    @Test
    void positionsAndTotalsEqualRowCountsAfterRandomReorgsAndMicroblocks() throws SQLException {
        List<NewBlock> chain = new java.util.ArrayList<>(
                DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().subList(0, 62));
        chain.set(0, withoutGenesis(chain.get(0)));
        Random random = new Random(7);
        int forks = 0;
        int streams = 0;
        try (ApiServer api = ApiServer.start(database())) {
            ChainWriter writer = api.writer();
            for (int i = 0; i < chain.size(); i++) {
                NewBlock block = chain.get(i);
                List<NewTransaction> micro = block.transactions().stream().filter(NewTransaction::inMicroblock).toList();
                if (!micro.isEmpty() && i > 0) {
                    // The stream the parent's miner produced, served unanchored before this block confirms it.
                    writer.writeMicroblocks(new NewMicroblocks(chain.get(i - 1).indexBlockHash(),
                            block.parentBurnBlockTime(), block.blockTime() - 30, micro), null);
                    streams++;
                    assertPositionsExact(api, "stream under " + block.height());
                    if (random.nextBoolean()) {
                        // A fork that leaves the stream behind, then the original chain wins again.
                        writeFork(writer, chain, i, 1 + random.nextInt(2), random);
                        forks++;
                        assertPositionsExact(api, "fork leaving the stream under " + block.height());
                    }
                }
                writer.writeBlock(block);
                assertPositionsExact(api, "block " + block.height());
                if (i >= 4 && i + 2 < chain.size() && random.nextInt(5) == 0) {
                    writeFork(writer, chain, i + 1, 1 + random.nextInt(3), random);
                    forks++;
                    assertPositionsExact(api, "fork at " + block.height());
                }
            }
            // Replays change nothing.
            for (NewBlock block : chain) {
                writer.writeBlock(block);
            }
            assertPositionsExact(api, "replay");
        }
        assertTrue(forks >= 5 && streams >= 3, forks + " forks, " + streams + " streams exercised");
    }

    /**
     * Writes a competing fork that replaces the {@code depth} newest blocks below index {@code next}
     * and is one block longer, so it becomes canonical; the original chain takes over again when it
     * grows past it (the caller goes on writing it).
     */
    private static void writeFork(ChainWriter writer, List<NewBlock> chain, int next, int depth, Random random) {
        int from = Math.max(1, next - depth);
        NewBlock parent = chain.get(from - 1);
        String parentHash = parent.blockHash();
        String parentIndex = parent.indexBlockHash();
        for (int i = from; i <= next; i++) {
            NewBlock original = chain.get(i);
            List<NewTransaction> txs = new ArrayList<>();
            int txIndex = 0;
            for (NewTransaction tx : original.transactions()) {
                if (!tx.inMicroblock() && (txIndex == 0 || random.nextInt(3) > 0)) {
                    txs.add(new NewTransaction(tx.txId(), tx.rawTx(), txIndex++, tx.status(), tx.rawResult(),
                            tx.cost(), null, 0, tx.contractAbi(), tx.events()));
                }
            }
            String tag = String.format("%02x", (random.nextInt(200) + 16) & 0xff);
            String hash = "0x" + tag.repeat(31) + String.format("%02x", i & 0xff);
            String index = "0x" + tag.repeat(30) + "ff" + String.format("%02x", i & 0xff);
            NewBlock fork = new NewBlock(index, hash, original.height(), parentHash, parentIndex,
                    "0x" + "00".repeat(32), 0, original.blockTime(), original.burnBlockTime(),
                    original.burnBlockHash(), original.burnBlockHeight(), original.parentBurnBlockTime(),
                    original.minerTxid(), txs);
            writer.writeBlock(fork);
            parentHash = hash;
            parentIndex = index;
        }
    }

    /**
     * Block 1 without block 0's transactions: the write path stores those with {@code tx_index} + 1
     * (as the peer serves them), so their indexes repeat block 1's own and "chain order" by
     * (height, tx_index) would be ambiguous in this test's oracle.
     */
    private static NewBlock withoutGenesis(NewBlock one) {
        List<NewTransaction> txs = one.transactions();
        int own = 0;
        while (txs.get(own).txIndex() != 0) {
            own++;
        }
        return new NewBlock(one.blockHash(), one.indexBlockHash(), one.height(), one.parentBlockHash(),
                one.parentIndexBlockHash(), one.parentMicroblockHash(), one.parentMicroblockSequence(), one.blockTime(),
                one.burnBlockTime(), one.burnBlockHash(), one.burnBlockHeight(), one.parentBurnBlockTime(),
                one.minerTxid(), txs.subList(own, txs.size()), one.tenureHeight());
    }

    /** Positions 1..n in chain order for served rows, none for the others, counters equal to n. */
    static void assertPositionsExact(ApiServer api, String after) throws SQLException {
        DataSource dataSource = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            String schema = api.context().getProperty("flyway.datasources.default.schemas", String.class).orElse(null);
            if (schema != null) {
                st.execute("SET search_path TO \"" + schema + "\"");
            }
            assertEquals(0, count(st, """
                    SELECT COUNT(*) FROM (
                      SELECT history_position, ROW_NUMBER() OVER (PARTITION BY principal
                          ORDER BY block_height, microblock_sequence, tx_index, tx_id) AS n
                      FROM principal_txs WHERE canonical = TRUE AND microblock_canonical = TRUE) r
                    WHERE r.history_position IS NULL OR r.history_position <> r.n"""),
                    after + ": history positions are 1..n in chain order");
            assertEquals(0, count(st, """
                    SELECT COUNT(*) FROM principal_txs
                    WHERE NOT (canonical = TRUE AND microblock_canonical = TRUE) AND history_position IS NOT NULL"""),
                    after + ": rows not served have no position");
            assertEquals(0, count(st, """
                    SELECT COUNT(*) FROM principal_stats s
                    WHERE s.tx_count <> (SELECT COUNT(*) FROM principal_txs p WHERE p.principal = s.principal
                                         AND p.canonical = TRUE AND p.microblock_canonical = TRUE)"""),
                    after + ": every address total equals its served rows");
            assertEquals(0, count(st, """
                    SELECT COUNT(DISTINCT principal) FROM principal_txs p
                    WHERE canonical = TRUE AND microblock_canonical = TRUE
                      AND NOT EXISTS (SELECT 1 FROM principal_stats s WHERE s.principal = p.principal)"""),
                    after + ": every address with history has a total");
            assertEquals(0, count(st, """
                    SELECT COUNT(*) FROM (
                      SELECT log_position, ROW_NUMBER() OVER (PARTITION BY contract_id
                          ORDER BY block_height, microblock_sequence, tx_index, event_index, tx_id) AS n
                      FROM tx_events WHERE canonical = TRUE AND microblock_canonical = TRUE
                        AND event_type = 'smart_contract_log') r
                    WHERE r.log_position IS NULL OR r.log_position <> r.n"""),
                    after + ": log positions are 1..n in chain order");
            assertEquals(0, count(st, """
                    SELECT COUNT(*) FROM tx_events
                    WHERE NOT (canonical = TRUE AND microblock_canonical = TRUE) AND log_position IS NOT NULL"""),
                    after + ": events not served have no position");
            assertEquals(0, count(st, """
                    SELECT COUNT(*) FROM contract_log_stats s
                    WHERE s.event_count <> (SELECT COUNT(*) FROM tx_events e WHERE e.contract_id = s.contract_id
                        AND e.canonical = TRUE AND e.microblock_canonical = TRUE
                        AND e.event_type = 'smart_contract_log')"""),
                    after + ": every contract total equals its served log events");
        }
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
