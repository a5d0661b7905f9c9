package io.stacksexplorer.generate;

import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.condition.EnabledIf;

/** The same on PostgreSQL; runs with {@code -Dpg.tests=true}. */
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class GeneratedLogReplayPostgresTest extends GeneratedLogReplayContract {
    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
