package io.stacksexplorer;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Start-up switches derived from the environment (demo chain, event observer). */
class ApplicationPropertiesTest {

    @Test
    void demoChainOnlyForAnEmbeddedMainnetDatabase() {
        assertNull(Application.startupProperties(Map.of()).get("demo-data.enabled"), "left to DEMO_DATA (default on)");
        assertEquals(false, Application.startupProperties(Map.of("PG_HOST", "localhost")).get("demo-data.enabled"));
        assertEquals(false, Application.startupProperties(Map.of("STACKS_CHAIN_ID", "0x80000000"))
                .get("demo-data.enabled"));
    }

    @Test
    void eventObserverFollowsStacksApiMode() {
        Map<String, Object> both = Application.startupProperties(Map.of());
        assertEquals(true, both.get("stacks.event-observer.enabled"));
        assertEquals("127.0.0.1", both.get("stacks.event-observer.host"));
        assertEquals(3700, both.get("stacks.event-observer.port"));
        assertEquals(false, Application.startupProperties(Map.of("STACKS_API_MODE", "readonly"))
                .get("stacks.event-observer.enabled"));
        assertEquals(4000, Application.startupProperties(Map.of("STACKS_CORE_EVENT_PORT", "4000"))
                .get("stacks.event-observer.port"));
    }

    @Test
    void readonlyNeverWrites() {
        Map<String, Object> reader = Application.startupProperties(Map.of("STACKS_API_MODE", "readonly", "PG_HOST", "standby"));
        assertEquals(false, reader.get("flyway.datasources.default.enabled"), "no migrations on a standby");
        assertEquals(false, reader.get("demo-data.enabled"));
        assertEquals(false, reader.get("stacks.event-observer.enabled"), "no raw-payload writes");
        assertEquals(true, reader.get("datasources.default.read-only"));
        assertNull(Application.startupProperties(Map.of()).get("flyway.datasources.default.enabled"), "writers migrate");
    }

    @Test
    void metricsListenerFromTheEnvironment() {
        Map<String, Object> defaults = Application.startupProperties(Map.of());
        assertEquals(true, defaults.get("stacks.metrics.enabled"));
        assertEquals("127.0.0.1", defaults.get("stacks.metrics.host"));
        assertEquals(9153, defaults.get("stacks.metrics.port"));
        Map<String, Object> custom = Application.startupProperties(Map.of("STACKS_API_METRICS_HOST", "0.0.0.0",
                "STACKS_API_METRICS_PORT", "9999"));
        assertEquals("0.0.0.0", custom.get("stacks.metrics.host"));
        assertEquals(9999, custom.get("stacks.metrics.port"));
        assertEquals(false, Application.startupProperties(Map.of("STACKS_API_METRICS_ENABLED", "false"))
                .get("stacks.metrics.enabled"));
    }

    @Test
    void postgresConnectionsFailFast() {
        Map<String, Object> pg = Application.startupProperties(Map.of("PG_HOST", "db"));
        assertEquals("1", pg.get("datasources.default.data-source-properties.connectTimeout"));
    }
}
