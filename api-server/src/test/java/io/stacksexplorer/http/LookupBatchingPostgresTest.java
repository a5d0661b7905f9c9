package io.stacksexplorer.http;

import org.junit.jupiter.api.condition.EnabledIf;

/** Lookup batching on PostgreSQL ({@code -Dpg.tests=true}). */
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class LookupBatchingPostgresTest extends LookupBatchingContract {
    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
