package io.stacksexplorer.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What runs, from the environment: {@code STACKS_API_MODE} as the peer names it, and the metrics
 * listener ({@code STACKS_API_METRICS_*}).
 *
 * <ul>
 *   <li>{@code readonly}: the public API only, for a reader on a PostgreSQL standby. It never
 *       writes: no migrations (a standby refuses DDL and the writer owns the schema), no demo
 *       chain, no event observer (which would store raw payloads), and read-only connections, so a
 *       write that slipped through fails instead of reaching the primary's data.</li>
 *   <li>{@code writeonly}: the event observer only, no public API.</li>
 *   <li>anything else: both.</li>
 * </ul>
 */
public final class RunModeSettings {

    public static final String READONLY = "readonly";
    public static final String WRITEONLY = "writeonly";

    /** The peer exposes Prometheus on 9153; so do we, on loopback unless told otherwise. */
    public static final int DEFAULT_METRICS_PORT = 9153;

    private RunModeSettings() {
    }

    public static String apiMode(Map<String, String> env) {
        return env.getOrDefault("STACKS_API_MODE", "default").trim().toLowerCase(Locale.ROOT);
    }

    /** Micronaut properties for the mode named by {@code STACKS_API_MODE}. */
    public static Map<String, Object> modeProperties(Map<String, String> env) {
        Map<String, Object> props = new LinkedHashMap<>();
        boolean readonly = READONLY.equals(apiMode(env));
        props.put("stacks.event-observer.enabled", !readonly);
        if (readonly) {
            props.putAll(readonlyProperties());
        }
        return props;
    }

    /** The switches that make a server a pure reader (also used by tests that start one). */
    public static Map<String, Object> readonlyProperties() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("stacks.event-observer.enabled", false);
        props.put("flyway.datasources.default.enabled", false);
        props.put("demo-data.enabled", false);
        props.put("datasources.default.read-only", true);
        return props;
    }

    /**
     * The Prometheus listener: on unless {@code STACKS_API_METRICS_ENABLED=false}, on
     * {@code STACKS_API_METRICS_HOST} (127.0.0.1) : {@code STACKS_API_METRICS_PORT} (9153). It is a
     * listener of its own, never a route of the public API port.
     */
    public static Map<String, Object> metricsProperties(Map<String, String> env) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("stacks.metrics.enabled", !"false".equalsIgnoreCase(env.getOrDefault("STACKS_API_METRICS_ENABLED", "true").trim()));
        props.put("stacks.metrics.host", env.getOrDefault("STACKS_API_METRICS_HOST", "127.0.0.1"));
        props.put("stacks.metrics.port", Integer.parseInt(env.getOrDefault("STACKS_API_METRICS_PORT",
                String.valueOf(DEFAULT_METRICS_PORT)).trim()));
        return props;
    }
}
