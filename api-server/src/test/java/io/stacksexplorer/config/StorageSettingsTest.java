package io.stacksexplorer.config;

import org.junit.jupiter.api.Test;

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
        assertTrue(url.startsWith("jdbc:h2:file:./data/stacks-explorer;MODE=PostgreSQL"), url);
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
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             ResultSet rs = connection.createStatement().executeQuery("SELECT SETTING_VALUE"
                     + " FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'QUERY_CACHE_SIZE'")) {
            assertTrue(rs.next(), "H2 reports its query cache size");
            assertEquals(64, Integer.parseInt(rs.getString(1)));
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
