package io.stacksexplorer.ops;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.config.RunModeSettings;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reader ({@code STACKS_API_MODE=readonly}) started before its writer, on one embedded database:
 * it writes nothing (no migrations, no observer), answers 503 saying the schema is not there,
 * readiness DOWN, and serves the writer's blocks as soon as the writer has migrated. The
 * PostgreSQL streaming-replication version is {@link ReadReplicaPostgresTest}.
 */
class ReadonlyReaderTest {

    @Test
    void readerWaitsForTheWritersSchemaThenServesItsBlocks() throws Exception {
        Map<String, Object> shared = TestDatabase.H2.freshProperties();
        Map<String, Object> readerProps = new HashMap<>(shared);
        readerProps.putAll(RunModeSettings.readonlyProperties());
        try (ApplicationContext reader = ApplicationContext.run(EmbeddedServer.class, readerProps).getApplicationContext()) {
            String api = reader.getBean(EmbeddedServer.class).getURL().toString();
            assertFalse(reader.containsBean(io.stacksexplorer.ingest.EventObserverListener.class), "no observer in readonly");

            Http.Answer before = Http.get(api + "/extended/v2/blocks/latest");
            assertEquals(503, before.status(), before.body());
            assertTrue(before.contentType().startsWith("application/problem+json"), before.contentType());
            assertTrue(before.body().contains("schema is not there yet"), before.body());
            assertEquals(String.valueOf(Unavailable.RETRY_AFTER_SECONDS), before.header("Retry-After"));
            assertEquals(503, Http.get(api + "/health/readiness").status());
            assertEquals(200, Http.get(api + "/health/liveness").status());
            assertEquals(200, Http.get(api + "/extended/openapi.yaml").status(), "the contract needs no database");

            try (ApplicationContext writer = ApplicationContext.run(EmbeddedServer.class, shared).getApplicationContext()) {
                ChainWriter chain = writer.getBean(ChainWriter.class);
                DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().stream().limit(3).forEach(chain::writeBlock);
                Http.Answer after = Wait.until(() -> Http.get(api + "/extended/v2/blocks/latest"), a -> a.status() == 200, 10);
                assertTrue(after.body().contains("\"height\":3"), after.body());
                assertEquals(200, Http.get(api + "/health/readiness").status());
            }
        }
    }
}
