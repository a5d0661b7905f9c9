package io.stacksexplorer.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The peer's PG_* variables choose PostgreSQL; without them the embedded H2 file (or memory) is used. */
class StorageSettingsTest {

    @Test
    void embeddedFileUnderTheWorkingDirectoryByDefault() {
        Map<String, Object> props = StorageSettings.properties(Map.of());
        assertFalse(StorageSettings.usesPostgres(Map.of()));
        String url = props.get("datasources.default.url").toString();
        assertTrue(url.startsWith("jdbc:h2:file:./data/stacks-explorer;WRITE_DELAY=500;DB_CLOSE_ON_EXIT=FALSE;MODE=PostgreSQL"), url);
        assertEquals("classpath:db/migration/common,classpath:db/migration/h2",
                props.get("flyway.datasources.default.locations"));
    }

    @Test
    void inMemoryWhenAskedAndAnotherFileWhenNamed() {
        assertTrue(StorageSettings.properties(Map.of("H2_IN_MEMORY", "true")).get("datasources.default.url")
                .toString().startsWith("jdbc:h2:mem:stacks-explorer;DB_CLOSE_DELAY=-1"));
        assertTrue(StorageSettings.properties(Map.of("H2_FILE", "/var/lib/explorer/db")).get("datasources.default.url")
                .toString().startsWith("jdbc:h2:file:/var/lib/explorer/db;"));
    }

    /**
     * A pooled H2 session serves every route, and together they prepare more statements than H2's
     * default query cache (8) holds: each request would parse and plan its statements again.
     */
    @Test
    void embeddedSessionsKeepEnoughParsedStatementsForEveryRoute() throws SQLException {
        String url = StorageSettings.properties(Map.of("H2_IN_MEMORY", "true")).get("datasources.default.url")
                .toString().replace("mem:stacks-explorer", "mem:storage-settings-test");
        try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
            assertEquals(64, Integer.parseInt(setting(connection, "QUERY_CACHE_SIZE")));
        }
    }

    /** H2_COMPRESS=true compresses the embedded file's pages; a file written uncompressed still opens. */
    @Test
    void compressedEmbeddedFileWhenAskedOpensAnUncompressedOne(@TempDir Path dir) throws SQLException {
        Path file = dir.resolve("db");
        String plainUrl = StorageSettings.properties(Map.of("H2_FILE", file.toString())).get("datasources.default.url")
                .toString();
        try (Connection plain = DriverManager.getConnection(plainUrl, "sa", "")) {
            assertEquals("FALSE", setting(plain, "COMPRESS"), "uncompressed unless asked");
            plain.createStatement().execute("CREATE TABLE written_before (hash VARCHAR(66))");
            plain.createStatement().execute("INSERT INTO written_before VALUES ('0x00')");
        }
        String url = StorageSettings.properties(Map.of("H2_FILE", file.toString(), "H2_COMPRESS", "true"))
                .get("datasources.default.url").toString();
        try (Connection compressed = DriverManager.getConnection(url, "sa", "");
             ResultSet before = compressed.createStatement().executeQuery("SELECT hash FROM written_before")) {
            assertEquals("TRUE", setting(compressed, "COMPRESS"));
            assertTrue(before.next(), "the uncompressed file's rows are read");
            assertEquals("0x00", before.getString(1));
        }
    }

    /**
     * A commit followed by {@code CHECKPOINT} (what the event observer runs before it answers 200)
     * is in the embedded file when the process dies right after (Runtime.halt: no shutdown hook, as
     * under SIGKILL), although the file is written by H2's background thread (WRITE_DELAY 500, which
     * keeps the thread that frees dead chunks running). Without the checkpoint the same child lost
     * all 200 commits.
     */
    @Test
    void aCheckpointedCommitOnTheEmbeddedFileSurvivesTheProcessDyingRightAfterIt(@TempDir Path dir) throws Exception {
        String url = StorageSettings.properties(Map.of("H2_FILE", dir.resolve("db").toString()))
                .get("datasources.default.url").toString();
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CommitThenDie.class.getName(), url, "200").inheritIO().start();
        assertEquals(CommitThenDie.EXIT_AFTER_COMMITS, child.waitFor(), "the child committed, then died");
        try (Connection reopened = DriverManager.getConnection(url, "sa", "");
             ResultSet rs = reopened.createStatement().executeQuery("SELECT COUNT(*) FROM committed")) {
            assertTrue(rs.next());
            assertEquals(200, rs.getLong(1), "every commit made before the process died");
            assertEquals("500", setting(reopened, "WRITE_DELAY"));
        }
    }

    /** H2_FSYNC=true asks the observer to force each delivery to the disk; nothing else changes. */
    @Test
    void fsyncEachDeliveryOnlyWhenAsked() {
        assertEquals(Boolean.TRUE, StorageSettings.properties(Map.of("H2_FSYNC", "true"))
                .get("stacks.event-observer.fsync-each-payload"));
        assertFalse(StorageSettings.properties(Map.of()).containsKey("stacks.event-observer.fsync-each-payload"));
    }

    private static String setting(Connection connection, String name) throws SQLException {
        try (ResultSet rs = connection.createStatement().executeQuery(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = '" + name + "'")) {
            assertTrue(rs.next(), "H2 reports " + name);
            return rs.getString(1).toUpperCase(java.util.Locale.ROOT);
        }
    }

    @Test
    void postgresWhenPgHostIsSet() {
        Map<String, String> env = Map.of("PG_HOST", "db.internal", "PG_PORT", "5433", "PG_USER", "api",
                "PG_PASSWORD", "secret", "PG_DATABASE", "stacks", "PG_SCHEMA", "explorer");
        Map<String, Object> props = StorageSettings.properties(env);
        assertTrue(StorageSettings.usesPostgres(env));
        assertEquals("jdbc:postgresql://db.internal:5433/stacks?reWriteBatchedInserts=true", props.get("datasources.default.url"));
        assertEquals("api", props.get("datasources.default.username"));
        assertEquals("secret", props.get("datasources.default.password"));
        assertEquals("explorer", props.get("datasources.default.schema"));
        assertEquals("classpath:db/migration/common,classpath:db/migration/postgresql",
                props.get("flyway.datasources.default.locations"));
    }
}
