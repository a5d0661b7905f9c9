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
}
