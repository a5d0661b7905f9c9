package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replay command killed with SIGKILL in the middle of a batch, several times, then run to the
 * end, leaves exactly the database a clean replay leaves (every table, row for row; only the
 * generated ids of raw payloads are left out, since a killed transaction may have used some).
 * Real processes, real kills, small batches so that the kills land between commits; the log has
 * forks. PostgreSQL only: an H2 file database killed with SIGKILL kept none of the replay's
 * commits here (H2 writes its store lazily), so no kill could be shown to land mid-replay.
 */
class ReplayCrashTest {

    private static final String LOG = "mainnet-reorg-scenario1.tsv";

    @Test
    void killedReplaysThenARerunEqualACleanReplayOnPostgres() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestDatabase.postgresEnabled(), "PostgreSQL tests off");
        Target killed = Target.postgres();
        Target clean = Target.postgres();
        try {
            run(killed, clean);
        } finally {
            killed.dropSchema();
            clean.dropSchema();
        }
    }

    private static void run(Target killed, Target clean) throws Exception {
        Path log = NodeEventsIngestContract.eventsFolder().resolve(LOG);
        long lines;
        try (var all = Files.lines(log, StandardCharsets.UTF_8)) {
            lines = all.filter(l -> !l.isBlank()).count();
        }
        Random random = new Random(3);
        int partial = 0;
        List<Long> afterKills = new ArrayList<>();
        // Watch the committed payloads of the running replay and kill it as soon as it has gone past
        // a random point: the kill then lands inside one of the following batches, whatever the
        // machine's speed (a fixed delay either fires before the first commit on a loaded machine
        // or after the last one on an idle one).
        for (int attempt = 0; attempt < 4; attempt++) {
            long stored = countAfterKill(killed);
            if (stored >= lines - 20) {
                break;
            }
            long target = stored + 1 + random.nextInt(15);
            Process replay = start(killed, log);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (replay.isAlive() && committed(killed) < target && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            replay.destroyForcibly().waitFor();
            long after = countAfterKill(killed);
            afterKills.add(after);
            if (after > 0 && after < lines) {
                partial++;
            }
        }
        assertTrue(partial >= 2, "at least two kills must land mid-replay; payloads stored after each kill: " + afterKills + " of " + lines);
        assertEquals(0, finish(start(killed, log)), "the rerun completes");
        assertEquals(0, finish(start(clean, log)), "the clean replay completes");
        Map<String, List<String>> expected = dump(clean);
        Map<String, List<String>> actual = dump(killed);
        assertTrue(expected.get("blocks").size() > 10 && expected.get("txs").size() > 0, "the log was replayed");
        for (String table : TableDump.TABLES) {
            assertEquals(expected.get(table), actual.get(table), table + " after kills and a rerun");
        }
    }

    private static Process start(Target target, Path log) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx512m", "-Dstacks.replay.batch=5",
                "-cp", System.getProperty("java.class.path"), "io.stacksexplorer.Application", "replay",
                log.toString());
        builder.environment().putAll(target.env);
        // Metrics on a free port: the default 9153 is one per machine, and another build's crash test
        // may hold it, which stops this replay from starting.
        builder.environment().put("STACKS_API_METRICS_PORT", "0");
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return builder.start();
    }

    private static int finish(Process process) throws InterruptedException {
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    /** Payloads committed so far by a running replay; 0 until its migrations created the table. */
    private static long committed(Target target) {
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM node_events")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            return 0;
        }
    }

    /**
     * The count once the killed process is gone (the server may need a moment to notice that the
     * killed connection is gone).
     */
    private static long countAfterKill(Target target) throws InterruptedException {
        SQLException last = null;
        for (int i = 0; i < 100; i++) {
            try (Connection c = target.connect(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM node_events")) {
                rs.next();
                return rs.getLong(1);
            } catch (SQLException e) {
                if (e.getSQLState() != null && e.getSQLState().startsWith("42")) {
                    return 0; // killed before the migrations created the table
                }
                last = e;
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("database unreadable after the kill", last);
    }

    /**
     * Every table; node_events without its generated ids (a killed transaction may have used some) and
     * chain_state without the positions' version (bumped once per transaction that renumbers, and a
     * rerun's transactions start where the kill left them).
     */
    private static Map<String, List<String>> dump(Target target) throws SQLException {
        try (Connection c = target.connect()) {
            return TableDump.of(c, Set.of("node_events.id", "chain_state.positions_version"), Map.of());
        }
    }

    /** A database for the replay command (its environment) and for the test (a JDBC URL). */
    private record Target(Map<String, String> env, String url, String user, String schema) {

        static Target postgres() {
            String schema = "crash" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            Map<String, String> env = TestDatabase.postgresEnvironment(schema);
            String url = "jdbc:postgresql://" + env.get("PG_HOST") + ":" + env.get("PG_PORT") + "/"
                    + env.get("PG_DATABASE") + "?currentSchema=" + schema;
            return new Target(env, url, env.get("PG_USER"), schema);
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, env.getOrDefault("PG_PASSWORD", ""));
        }

        void dropSchema() throws SQLException {
            try (Connection c = connect(); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Collections.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
