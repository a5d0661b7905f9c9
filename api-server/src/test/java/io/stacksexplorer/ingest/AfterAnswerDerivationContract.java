package io.stacksexplorer.ingest;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.NodeFeeder.Payload;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code STACKS_OBSERVER_DERIVE=after-answer}: the observer answers once the payload alone is
 * committed, and a second thread derives the stored payloads many per transaction
 * ({@link AfterAnswerDerivation}). Once it has caught up, the database must be what deriving
 * before each answer makes of the same deliveries, row for row and change-log entry for entry;
 * delivering everything again must change nothing; a payload that cannot be understood is still
 * refused before anything is stored. (What a kill between the answer and the derivation leaves is
 * ObserverCrashTest's.)
 */
abstract class AfterAnswerDerivationContract {

    abstract TestDatabase database();

    private static List<Payload> log;

    @BeforeAll
    static void generateLog(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("after-answer.tsv");
        // Seed 11: forks, microblocks (one before its anchor), drops and mempool churn.
        assertEquals(0, new CommandLine(new GenerateCommand()).execute(file.toString(), "--transactions", "2000",
                "--seed", "11"));
        log = NodeFeeder.read(file);
    }

    private static final Map<String, Object> AFTER_ANSWER = Map.of("stacks.event-observer.derive-after-answer", true);

    @Test
    void derivedAfterTheAnswerTheDatabaseEqualsDerivingBeforeIt() throws Exception {
        Map<String, List<String>> before;
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            deliver(server, log);
            before = dump(server);
        }
        try (IngestServer server = IngestServer.start(database(), "0x00000001", AFTER_ANSWER)) {
            deliver(server, log);
            assertTrue(server.context().getBean(ChainWriter.class).backlog().accepted() > 0,
                    "payloads were accepted to be derived after their answer");
            awaitDerived(server);
            Map<String, List<String>> after = dump(server);
            assertTrue(after.get("blocks").size() > 100, "the log was derived");
            for (String table : before.keySet()) {
                assertEquals(before.get(table), after.get(table), table);
            }

            // A node delivering everything again: answered, nothing stored or derived twice.
            deliver(server, log);
            awaitDerived(server);
            Map<String, List<String>> again = dump(server);
            for (String table : after.keySet()) {
                assertEquals(after.get(table), again.get(table), table + " after every payload came again");
            }
        }
    }

    /**
     * A replay stores each batch before its deriving thread writes the batch's rows (TsvReplay); one
     * stopped between the two leaves stored payloads not derived. An observer deriving before its
     * answers (the default) derives them before it listens, to the rows a clean ingest writes.
     */
    @Test
    void payloadsStoredAndNotDerivedAreDerivedBeforeAnObserverDerivingBeforeItsAnswersListens() throws Exception {
        List<Delivery> deliveries = new ArrayList<>();
        for (Payload payload : log) {
            deliveries.add(Delivery.prepare(payload.path(), payload.body(), 1_700_000_000L));
        }
        Map<String, List<String>> clean;
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            server.ingestor().ingestAll(deliveries, delivery -> {
            });
            clean = dump(server);
        }
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            // The storing half of a replay, its deriving half never run.
            List<Delivery> stored = server.ingestor().acceptAll(deliveries);
            assertTrue(stored.size() > 100, "the log was stored: " + stored.size());
            assertEquals(new ChainWriter.Backlog(0, stored.get(stored.size() - 1).raw().storedId()), writer.backlog());
            assertTrue(server.ingestor().acceptAll(deliveries).isEmpty(), "stored before: acknowledged, not again");

            EventObserverListener restarted = new EventObserverListener(server.ingestor(),
                    server.context().getBean(EventObserverSettings.class));
            restarted.stop();
            assertTrue(writer.backlog().isEmpty(), "derived before listening: " + writer.backlog());
            Map<String, List<String>> derived = dump(server);
            assertTrue(derived.get("blocks").size() > 100, "the log was derived");
            for (String table : clean.keySet()) {
                assertEquals(clean.get(table), derived.get(table), table);
            }
        }
    }

    @Test
    void aPayloadThatCannotBeUnderstoodIsRefusedAndNothingIsStored() throws Exception {
        try (IngestServer server = IngestServer.start(database(), "0x00000001", AFTER_ANSWER)) {
            deliver(server, log.subList(0, 50));
            awaitDerived(server);
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            long stored = writer.countStoredPayloads();
            ChainWriter.Backlog cursors = writer.backlog();

            IngestServer.Answer refused = server.postToObserver("/new_block", "{\"block_height\": \"not a block\"}");
            assertEquals(400, refused.status(), refused.raw());
            assertEquals(stored, writer.countStoredPayloads(), "nothing stored");
            assertEquals(cursors, writer.backlog(), "nothing accepted");
        }
    }

    /**
     * At the chain's tip a payload arrives alone, and it is derived at once: the wait for more
     * payloads to share a transaction (here 6 s) is only for payloads coming back to back, as while
     * a node syncs. Lingering on a lone payload would hold it (and its readers) for the whole wait.
     */
    @Test
    void aPayloadArrivingAloneIsDerivedWithoutWaitingForCompany() throws Exception {
        long lingerMillis = 6_000;
        Map<String, Object> longLinger = Map.of("stacks.event-observer.derive-after-answer", true,
                "stacks.event-observer.derive-linger-millis", lingerMillis);
        try (IngestServer server = IngestServer.start(database(), "0x00000001", longLinger)) {
            ChainWriter writer = server.context().getBean(ChainWriter.class);
            for (int i = 0; i < 2; i++) {
                if (i > 0) {
                    Thread.sleep(lingerMillis + 500); // alone: more than the linger after the one before
                }
                long answered = System.nanoTime();
                deliver(server, log.subList(i, i + 1));
                while (!writer.backlog().isEmpty()) {
                    long waited = (System.nanoTime() - answered) / 1_000_000;
                    assertTrue(waited < lingerMillis / 2, "payload " + i + " derived at once, not after the "
                            + lingerMillis + " ms linger: " + writer.backlog() + " after " + waited + " ms");
                    Thread.sleep(20);
                }
            }
        }
    }

    /** One POST at a time on a kept-alive connection, each answered 200 before the next, as a node does. */
    private static void deliver(IngestServer server, List<Payload> payloads) throws IOException {
        try (NodeFeeder node = new NodeFeeder("127.0.0.1", server.observerPort(), NodeFeeder.Connections.KEEP_ALIVE)) {
            for (int i = 0; i < payloads.size(); i++) {
                int status = node.post(payloads.get(i));
                assertEquals(200, status, "payload " + i + " (" + payloads.get(i).path() + ")");
            }
        }
    }

    /** Until every payload answered is derived (the cursors of V202 meet). */
    private static void awaitDerived(IngestServer server) throws InterruptedException {
        ChainWriter writer = server.context().getBean(ChainWriter.class);
        long deadline = System.currentTimeMillis() + 120_000;
        while (!writer.backlog().isEmpty()) {
            assertTrue(System.currentTimeMillis() < deadline, "derived within 2 minutes: " + writer.backlog());
            Thread.sleep(20);
        }
    }

    /**
     * Every table the write path fills, without what depends on the wall clock of receipt (payload
     * and mempool receipt times, the time of microblock transactions), on generated ids, or on the
     * number of database transactions (the mempool and positions versions are bumped once per
     * transaction); then the
     * change log in order, without its wall-clock column.
     */
    private static Map<String, List<String>> dump(IngestServer server) throws SQLException {
        DataSource dataSource = DelegatingDataSource.unwrapDataSource(server.context().getBean(DataSource.class));
        try (Connection c = dataSource.getConnection()) {
            Map<String, List<String>> tables = new java.util.LinkedHashMap<>(TableDump.of(c, Set.of("node_events.id",
                    "node_events.received_at", "mempool_txs.receipt_time", "mempool_principals.receipt_time",
                    "chain_state.mempool_version", "chain_state.positions_version", "txs.block_time"), Map.of("mempool_principal_stats", "pending_count <> 0")));
            List<String> changes = new ArrayList<>();
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT position, kind, index_block_hash, tx_id, microblock_hash"
                         + " FROM change_log ORDER BY position")) {
                while (rs.next()) {
                    changes.add(rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4)
                            + "|" + rs.getString(5));
                }
            }
            tables.put("change_log", changes);
            return tables;
        }
    }
}
