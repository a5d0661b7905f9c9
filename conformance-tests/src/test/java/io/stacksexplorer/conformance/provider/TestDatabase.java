package io.stacksexplorer.conformance.provider;

import io.stacksexplorer.config.StorageSettings;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A fresh database for one verification class: an H2 in-memory database of its own name, or a
 * PostgreSQL schema of its own in the server named by PG_* (defaults: 127.0.0.1:5432, user
 * postgres, database test). Storage properties come from the application's own
 * {@link StorageSettings}, so the server runs exactly as configured in production.
 */
enum TestDatabase {
    H2, POSTGRES;

    static boolean postgresEnabled() {
        return Boolean.getBoolean("pg.tests") || "true".equalsIgnoreCase(System.getenv("PG_TESTS"));
    }

    /** Micronaut properties for the server on a new, empty database, a random port, no demo data. */
    Map<String, Object> serverProperties() {
        String name = "pact_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Map<String, String> env = new HashMap<>();
        if (this == POSTGRES) {
            env.put("PG_HOST", envOr("PG_HOST", "127.0.0.1"));
            env.put("PG_PORT", envOr("PG_PORT", "5432"));
            env.put("PG_USER", envOr("PG_USER", "postgres"));
            env.put("PG_PASSWORD", envOr("PG_PASSWORD", ""));
            env.put("PG_DATABASE", envOr("PG_DATABASE", "test"));
            env.put("PG_SCHEMA", name);
        } else {
            env.put("H2_IN_MEMORY", "true");
        }
        Map<String, Object> props = new HashMap<>(StorageSettings.properties(env));
        if (this == H2) {
            // Same options as StorageSettings, but a database name of this class's own.
            props.put("datasources.default.url", props.get("datasources.default.url").toString()
                    .replace("jdbc:h2:mem:stacks-explorer", "jdbc:h2:mem:" + name));
        }
        props.put("demo-data.enabled", false);
        props.put("micronaut.server.port", -1);
        props.put("micronaut.server.host", "127.0.0.1");
        return props;
    }

    private static String envOr(String key, String fallback) {
        String v = System.getenv(key);
        return v == null || v.isBlank() ? fallback : v;
    }
}
