package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/** On PostgreSQL, where the batched rows go by COPY; runs with {@code -Dpg.tests=true}. */
class BatchedReplayEquivalencePostgresTest extends BatchedReplayEquivalenceContract {

    @BeforeAll
    static void onlyWhenAsked() {
        Assumptions.assumeTrue(IngestServer.postgresEnabled(), "PostgreSQL tests run with -Dpg.tests=true");
    }

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
