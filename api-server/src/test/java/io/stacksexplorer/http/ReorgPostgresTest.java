package io.stacksexplorer.http;

import org.junit.jupiter.api.condition.EnabledIf;

@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class ReorgPostgresTest extends ReorgContract {
    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
