package io.stacksexplorer.ingest;

import io.micronaut.context.ApplicationContext;
import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.generate.GenerateCommand;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.NodeFeeder.Payload;
import io.stacksexplorer.write.RawPayload;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.sql.DataSource;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The live path as a node uses it, killed: a real server process is fed a generated log through its
 * event observer by a client that behaves like a stacks-node (one POST at a time, each payload until
 * it is answered 200), and is killed with SIGKILL again and again, every other time within a
 * millisecond after a block was answered 200, otherwise at a random moment (often in the middle of
 * a request). After each kill every payload answered 200 must be in the database with what it
 * derives (its block among the blocks), and the server must come up again on the crashed database.
 * After the last restart the rest of the log is delivered, and every table equals a clean ingest
 * of the same log.
 *
 * <p>Before each delivery was written to the H2 file ahead of its 200 (every commit at once with
 * WRITE_DELAY=0 until 2026-11-27, a CHECKPOINT before the answer since), this lost acknowledged blocks,
 * burn blocks and mempool transactions on H2, and 5 of 20 restarts failed while H2 recovered the
 * file for longer than the pool's 500 ms.
 */
class ObserverCrashTest {

    private static final int H2_KILLS = 20;
    private static final int POSTGRES_KILLS = 10;
    private static final int AFTER_ANSWER_KILLS = 8;

    private static List<Payload> log;

    @BeforeAll
    static void generateLog(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("crash.tsv");
        // Seed 11 has a fork and an orphaned microblock, so the kills also land around reorgs.
        assertEquals(0, new CommandLine(new GenerateCommand()).execute(file.toString(), "--transactions", "2000",
                "--seed", "11"));
        log = NodeFeeder.read(file);
    }

    @Test
    void killedOnH2EveryAcknowledgedPayloadSurvivesAndTheEndEqualsACleanIngest(@TempDir Path dir) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("H2_FILE", dir.resolve("crashed").toString());
        String url = StorageSettings.properties(env).get("datasources.default.url").toString();
        run(new Target(env, url, "sa", "", null), TestDatabase.H2, H2_KILLS, false, dir.resolve("server.log"));
    }

    /**
     * {@code STACKS_OBSERVER_DERIVE=after-answer} (PostgreSQL only): a kill right after a 200 usually
     * leaves payloads stored and not derived; the restart must derive them before it listens again.
     * On H2 this once ended with one principal_txs row written twice (CI, 2026-11-25), so the mode
     * is refused there until that is understood (issue 21).
     */
    @Test
    void killedOnPostgresDerivingAfterTheAnswerEveryAcknowledgedPayloadIsDerivedAtTheRestart(@TempDir Path dir)
            throws Exception {
        onPostgres(Map.of("STACKS_OBSERVER_DERIVE", "after-answer"), AFTER_ANSWER_KILLS, true, dir);
    }

    @Test
    void killedOnPostgresDerivingBeforeTheAnswerEveryAcknowledgedPayloadSurvivesAndTheEndEqualsACleanIngest(
            @TempDir Path dir) throws Exception {
        onPostgres(Map.of("STACKS_OBSERVER_DERIVE", "before-answer"), POSTGRES_KILLS, false, dir);
    }

    /** {@link #run} on a PostgreSQL schema of its own, with {@code extraEnv} for the server; the schema is dropped after. */
    private static void onPostgres(Map<String, String> extraEnv, int kills, boolean afterAnswer, Path dir) throws Exception {
        Assumptions.assumeTrue(TestDatabase.postgresEnabled(), "PostgreSQL tests off");
        String schema = "crash" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Map<String, String> env = new HashMap<>(TestDatabase.postgresEnvironment(schema));
        env.putAll(extraEnv);
        String url = "jdbc:postgresql://" + env.get("PG_HOST") + ":" + env.get("PG_PORT") + "/"
                + env.get("PG_DATABASE") + "?currentSchema=" + schema;
        Target target = new Target(env, url, env.get("PG_USER"), env.getOrDefault("PG_PASSWORD", ""), schema);
        try {
            run(target, TestDatabase.POSTGRES, kills, afterAnswer, dir.resolve("server.log"));
        } finally {
            target.dropSchema();
        }
    }

    /**
     * @param afterAnswer the server derives after answering: right after a kill the payloads answered
     *                    are checked as stored (their derivation may be cut off), and as derived after
     *                    the next kill (the restart derives them before it listens)
     */
    private static void run(Target target, TestDatabase cleanDatabase, int kills, boolean afterAnswer, Path serverLog)
            throws Exception {
        Random random = new Random(23);
        int next = 0;
        int killsRightAfterA200 = 0;
        int killsMidRequest = 0;
        int killsBeforeDerived = 0;
        int derivedBefore = 0;
        List<String> story = new ArrayList<>();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            for (int kill = 0; kill < kills; kill++) {
                int port = freePort();
                Process server = start(target, port, serverLog);
                assertTrue(NodeFeeder.waitUntilAnswering("127.0.0.1", port, server, TimeUnit.MINUTES.toMillis(3)),
                        "restart " + kill + " after a kill came up (server log: " + serverLog + ")");
                boolean afterA200 = kill % 2 == 0;
                int killAfter = afterA200 ? nextBlockAtOrAfter(next + 1 + random.nextInt(60)) : -1;
                if (!afterA200) {
                    timer.schedule(server::destroyForcibly, 30 + random.nextInt(400), TimeUnit.MILLISECONDS);
                }
                boolean killedMidRequest = false;
                try (NodeFeeder node = new NodeFeeder("127.0.0.1", port, NodeFeeder.Connections.KEEP_ALIVE)) {
                    while (next < log.size() && server.isAlive()) {
                        int status;
                        try {
                            status = node.post(log.get(next));
                        } catch (IOException e) {
                            killedMidRequest = true;
                            break; // killed while this payload was on its way: it was not acknowledged
                        }
                        if (status == 200) {
                            next++;
                            if (next - 1 == killAfter) {
                                server.destroyForcibly(); // SIGKILL, microseconds after reading the 200
                                break;
                            }
                        } else if (status != 503) {
                            fail("payload " + next + " (" + log.get(next).path() + ") answered " + status);
                        }
                    }
                }
                server.destroyForcibly();
                server.waitFor();
                if (afterA200 && next - 1 == killAfter) {
                    killsRightAfterA200++;
                }
                if (killedMidRequest) {
                    killsMidRequest++;
                }
                story.add(next + (afterA200 ? " (killed right after a block's 200)" : " (timer)"));
                assertAcknowledgedPresent(target, next, afterAnswer, "after kill " + kill + " at payload " + next);
                if (afterAnswer) {
                    // What the previous server answered was derived before this one listened; what this
                    // one answered may not be yet (checked after the next kill).
                    assertAcknowledgedPresent(target, derivedBefore, false, "after kill " + kill + ", derived");
                    derivedBefore = next;
                }
                if (afterAnswer && answeredNotDerived(target)) {
                    killsBeforeDerived++;
                }
                if (next >= log.size()) {
                    break;
                }
            }
        } finally {
            timer.shutdownNow();
        }
        assertTrue(killsRightAfterA200 >= kills / 2 - 1, "kills right after a block's 200: " + killsRightAfterA200
                + "; acknowledged payloads at each kill: " + story);
        assertTrue(next < log.size(), "the log outlasted the kills: " + story);
        if (afterAnswer) {
            assertTrue(killsBeforeDerived > 0, "some kill left answered payloads not derived: " + story);
        }

        // The rest of the log, then a clean stop.
        int port = freePort();
        Process server = start(target, port, serverLog);
        assertTrue(NodeFeeder.waitUntilAnswering("127.0.0.1", port, server, TimeUnit.MINUTES.toMillis(3)));
        try (NodeFeeder node = new NodeFeeder("127.0.0.1", port, NodeFeeder.Connections.KEEP_ALIVE)) {
            while (next < log.size()) {
                int status = node.post(log.get(next));
                assertTrue(status == 200 || status == 503, "payload " + next + " answered " + status);
                if (status == 200) {
                    next++;
                }
            }
        }
        server.destroy();
        assertTrue(server.waitFor(60, TimeUnit.SECONDS), "the server stops on SIGTERM");
        System.out.printf("observer crash test (%s%s): %d kills, %d right after a block's 200, %d in the middle of"
                + " a request, %d leaving answered payloads not derived; acknowledged at each kill: %s%n", cleanDatabase,
                afterAnswer ? ", after-answer" : "", story.size(), killsRightAfterA200, killsMidRequest,
                killsBeforeDerived, story);

        Map<String, List<String>> crashed;
        try (Connection c = target.connect()) {
            crashed = dump(c);
        }
        assertEquals(log.size(), crashed.get("node_events").size(), "every payload stored once");
        try (ApplicationContext clean = ApplicationContext.run(cleanDatabase.freshProperties())) {
            EventIngestor ingestor = clean.getBean(EventIngestor.class);
            for (Payload payload : log) {
                ingestor.ingest(payload.path(), payload.body(), System.currentTimeMillis() / 1000);
            }
            DataSource dataSource = DelegatingDataSource.unwrapDataSource(clean.getBean(DataSource.class));
            Map<String, List<String>> expected;
            try (Connection c = dataSource.getConnection()) {
                expected = dump(c);
            } finally {
                TestDatabase.dropSchemaOf(clean);
            }
            assertTrue(expected.get("blocks").size() > 20, "the log was ingested");
            for (String table : expected.keySet()) {
                assertEquals(expected.get(table), crashed.get(table), table + " after the kills equals a clean ingest");
            }
        }
    }

    /**
     * Every table, without what depends on the wall clock of receipt (payload and mempool receipt
     * times, the time of microblock transactions, which is when their microblock arrived) or on
     * generated ids (a killed transaction may have used some) or on how many transactions wrote them
     * (the mempool and positions versions); the block times of transactions
     * mined in their anchor block are compared separately.
     */
    private static Map<String, List<String>> dump(Connection c) throws SQLException {
        Map<String, List<String>> tables = new HashMap<>(TableDump.of(c, Set.of("node_events.id",
                "node_events.received_at", "mempool_txs.receipt_time", "mempool_principals.receipt_time",
                "chain_state.mempool_version", "chain_state.positions_version", "txs.block_time"),
                // A principal whose pending transactions all left the mempool keeps a counter row at 0
                // when they were written one by one, and never gets one when they came and went
                // within one transaction (after-answer derivation): both read as 0 pending.
                Map.of("mempool_principal_stats", "pending_count <> 0")));
        List<String> anchoredTimes = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(
                     "SELECT tx_id, index_block_hash, block_time FROM txs WHERE is_unanchored = FALSE AND microblock_hash = '0x'")) {
            while (rs.next()) {
                anchoredTimes.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getLong(3));
            }
        }
        anchoredTimes.sort(null);
        tables.put("txs.block_time (anchored)", anchoredTimes);
        return tables;
    }

    /** Whether the stored payloads include some answered and not derived (derive_cursor, V202). */
    private static boolean answeredNotDerived(Target target) throws SQLException {
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name, payload_id FROM derive_cursor")) {
            Map<String, Long> cursors = new HashMap<>();
            while (rs.next()) {
                cursors.put(rs.getString(1), rs.getLong(2));
            }
            return cursors.get("derived") < cursors.get("accepted");
        } catch (SQLException e) {
            if ("42".equals(String.valueOf(e.getSQLState()).substring(0, 2))) {
                return false; // killed before the migrations created the table
            }
            throw e;
        }
    }

    /**
     * Every payload answered 200 is stored, and (unless {@code storedOnly}) every acknowledged block
     * is among the blocks.
     */
    private static void assertAcknowledgedPresent(Target target, int acknowledged, boolean storedOnly, String when)
            throws SQLException {
        Set<String> hashes = new HashSet<>();
        Set<String> blocks = new HashSet<>();
        try (Connection c = target.connect(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT payload_hash FROM node_events")) {
                while (rs.next()) {
                    hashes.add(rs.getString(1));
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT index_block_hash FROM blocks")) {
                while (rs.next()) {
                    blocks.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            if (acknowledged == 0 && "42".equals(String.valueOf(e.getSQLState()).substring(0, 2))) {
                return; // killed before the migrations created the tables, and nothing was acknowledged
            }
            throw e;
        }
        List<Integer> lost = new ArrayList<>();
        for (int i = 0; i < acknowledged; i++) {
            Payload payload = log.get(i);
            if (!hashes.contains(RawPayload.received(payload.path(), payload.body(), 0).payloadHash())) {
                lost.add(i);
            } else if (!storedOnly && payload.path().equals("/new_block")) {
                var block = readJson(payload.body());
                // Block 0 is never a row of its own (GenesisBlock writes it as part of block 1).
                if (block.get("block_height").asLong() > 0 && !blocks.contains(block.get("index_block_hash").asText())) {
                    lost.add(i);
                }
            }
        }
        assertEquals(List.of(), lost, when + ": acknowledged payloads missing");
    }

    private static com.fasterxml.jackson.databind.JsonNode readJson(String json) {
        try {
            return IngestServer.JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int nextBlockAtOrAfter(int index) {
        for (int i = Math.min(index, log.size() - 1); i < log.size(); i++) {
            if (log.get(i).path().equals("/new_block")) {
                return i;
            }
        }
        return log.size() - 1;
    }

    private static Process start(Target target, int observerPort, Path serverLog) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx384m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "io.stacksexplorer.Application");
        // The database is the target's alone: PG_HOST inherited from the shell (CI exports it) would
        // send an H2 target's server to PostgreSQL, since PG_HOST wins over H2_FILE.
        builder.environment().keySet().removeIf(name -> name.startsWith("PG_") || name.startsWith("H2_"));
        builder.environment().putAll(target.env());
        builder.environment().put("STACKS_API_MODE", "writeonly");
        builder.environment().put("STACKS_CORE_EVENT_HOST", "127.0.0.1");
        builder.environment().put("STACKS_CORE_EVENT_PORT", Integer.toString(observerPort));
        builder.environment().put("DEMO_DATA", "false");
        // Metrics on a free port: the default 9153 is one per machine, and another build's crash test
        // may hold it, which stops this server from starting.
        builder.environment().put("STACKS_API_METRICS_PORT", "0");
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(serverLog.toFile()));
        return builder.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The crashed database: the server's environment, and a JDBC URL for the test. */
    private record Target(Map<String, String> env, String url, String user, String password, String schema) {

        Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }

        void dropSchema() throws SQLException {
            try (Connection c = connect(); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
            }
        }
    }
}
