package io.stacksexplorer;

import io.stacksexplorer.config.CorsSettings;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Start-up switches derived from the environment (demo chain, event observer, metrics, CORS origins). */
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
    void derivationAfterTheAnswerOnPostgresBeforeItOnH2UnlessAskedOtherwise() {
        assertEquals(false, Application.startupProperties(Map.of()).get("stacks.event-observer.derive-after-answer"));
        assertEquals(true, Application.startupProperties(Map.of("PG_HOST", "localhost"))
                .get("stacks.event-observer.derive-after-answer"));
        assertEquals(true, Application.startupProperties(Map.of("PG_HOST", "localhost", "STACKS_OBSERVER_DERIVE", " "))
                .get("stacks.event-observer.derive-after-answer"));
        assertEquals(false, Application.startupProperties(Map.of("STACKS_OBSERVER_DERIVE", "before-answer"))
                .get("stacks.event-observer.derive-after-answer"));
        assertEquals(false, Application.startupProperties(Map.of("STACKS_OBSERVER_DERIVE", "before-answer",
                "PG_HOST", "localhost")).get("stacks.event-observer.derive-after-answer"));
        assertEquals(true, Application.startupProperties(Map.of("STACKS_OBSERVER_DERIVE", "After-Answer",
                "PG_HOST", "localhost")).get("stacks.event-observer.derive-after-answer"));
        IllegalArgumentException onH2 = assertThrows(IllegalArgumentException.class,
                () -> Application.startupProperties(Map.of("STACKS_OBSERVER_DERIVE", "after-answer")));
        assertTrue(onH2.getMessage().contains("needs PostgreSQL"), onH2.getMessage());
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> Application.startupProperties(Map.of("STACKS_OBSERVER_DERIVE", "later")));
        assertTrue(wrong.getMessage().contains("before-answer or after-answer"), wrong.getMessage());
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
    void corsOriginsFromTheEnvironment() {
        String property = CorsSettings.ALLOWED_ORIGINS;
        assertNull(Application.startupProperties(Map.of()).get(property), "every origin (Micronaut's any)");
        assertNull(Application.startupProperties(Map.of("STACKS_API_CORS_ORIGINS", " * ")).get(property));
        assertNull(Application.startupProperties(Map.of("STACKS_API_CORS_ORIGINS", "")).get(property));
        assertEquals(List.of("https://explorer.example.com", "http://localhost:3000", "https://[::1]:8443"),
                Application.startupProperties(Map.of("STACKS_API_CORS_ORIGINS",
                        "https://Explorer.Example.com/, http://localhost:3000,,https://[::1]:8443")).get(property),
                "as browsers write an Origin: lower case, no trailing slash");
        for (String wrong : List.of("explorer.example.com", "https://explorer.example.com/app", "ftp://example.com",
                "https://explorer.example.com?x=1", "https://user@example.com")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Application.startupProperties(Map.of("STACKS_API_CORS_ORIGINS", wrong)), wrong);
            assertTrue(e.getMessage().contains("STACKS_API_CORS_ORIGINS") && e.getMessage().contains(wrong), e.getMessage());
        }
    }

    @Test
    void postgresConnectionsFailFast() {
        Map<String, Object> pg = Application.startupProperties(Map.of("PG_HOST", "db"));
        assertEquals("1", pg.get("datasources.default.data-source-properties.connectTimeout"));
    }
}
