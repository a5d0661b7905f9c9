package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/** The same on PostgreSQL; runs with {@code -Dpg.tests=true}. */
class PeerAnswersV9PostgresTest extends PeerAnswersV9Contract {

    @BeforeAll
    static void onlyWhenAsked() {
        Assumptions.assumeTrue(IngestServer.postgresEnabled(), "PostgreSQL tests run with -Dpg.tests=true");
    }

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
