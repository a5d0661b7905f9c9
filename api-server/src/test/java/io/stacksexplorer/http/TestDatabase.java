package io.stacksexplorer.http;

import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.config.StorageSettings;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A fresh, isolated database for one test class: an H2 in-memory database of its own, or a
 * PostgreSQL schema of its own in the server named by PG_* (defaults: the CI machine's
 * 127.0.0.1:5432, user postgres, database test). PostgreSQL variants run only with
 * {@code -Dpg.tests=true}.
 */
public enum TestDatabase {
    H2, POSTGRES;

    public static boolean postgresEnabled() {
        return Boolean.getBoolean("pg.tests") || "true".equalsIgnoreCase(System.getenv("PG_TESTS"));
    }

    /** Micronaut properties for a new, empty database. */
    public Map<String, Object> freshProperties() {
        String name = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        Map<String, String> env = new HashMap<>();
        if (this == POSTGRES) {
            env.putAll(postgresEnvironment(name));
        } else {
            env.put("H2_IN_MEMORY", "true");
        }
        Map<String, Object> props = new HashMap<>(StorageSettings.properties(env));
        if (this == H2) {
            // One in-memory database per test class, not the shared default name.
            props.put("datasources.default.url", props.get("datasources.default.url").toString()
                    .replace("mem:stacks-explorer", "mem:" + name));
        }
        props.put("demo-data.enabled", false);
        props.put("micronaut.server.port", -1);
        return props;
    }

    /**
     * The server's environment for the test PostgreSQL (PG_* of this process, or the CI machine's
     * defaults) with {@code schema} as its schema: for a test's own context or a child process.
     */
    public static Map<String, String> postgresEnvironment(String schema) {
        Map<String, String> env = new HashMap<>();
        env.put("PG_HOST", envOr("PG_HOST", "127.0.0.1"));
        env.put("PG_PORT", envOr("PG_PORT", "5432"));
        env.put("PG_USER", envOr("PG_USER", "postgres"));
        env.put("PG_PASSWORD", envOr("PG_PASSWORD", ""));
        env.put("PG_DATABASE", envOr("PG_DATABASE", "test"));
        env.put("PG_SCHEMA", schema);
        return env;
    }

    /**
     * A plain JDBC connection to the test PostgreSQL with a new, empty {@code schema} created and on
     * its search path: for tests of the write path's statements on tables of their own. The caller
     * drops the schema.
     */
    public static Connection postgresConnectionInNewSchema(String schema) throws SQLException {
        Map<String, String> env = postgresEnvironment(schema);
        Connection connection = java.sql.DriverManager.getConnection("jdbc:postgresql://" + env.get("PG_HOST") + ":"
                + env.get("PG_PORT") + "/" + env.get("PG_DATABASE"), env.get("PG_USER"), env.get("PG_PASSWORD"));
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
            st.execute("SET search_path TO " + schema);
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** Undoes {@link #postgresConnectionInNewSchema}: rolls back what is open, drops the schema, closes. */
    public static void dropSchemaAndClose(Connection connection, String schema) throws SQLException {
        try (connection) {
            connection.rollback();
            connection.setAutoCommit(true);
            try (Statement st = connection.createStatement()) {
                st.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    /**
     * Drops the PostgreSQL schema a test context was given (if any), so test runs leave the shared
     * database as they found it. Call before closing the context.
     */
    public static void dropSchemaOf(ApplicationContext context) {
        context.getProperty("flyway.datasources.default.schemas", String.class).ifPresent(schema -> {
            DataSource dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
            } catch (SQLException e) {
                throw new IllegalStateException("could not drop test schema " + schema, e);
            }
        });
    }

    private static String envOr(String key, String fallback) {
        String v = System.getenv(key);
        return v == null || v.isBlank() ? fallback : v;
    }
}
