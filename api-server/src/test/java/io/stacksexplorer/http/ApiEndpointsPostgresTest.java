package io.stacksexplorer.http;

import org.junit.jupiter.api.condition.EnabledIf;

/** The endpoint contract on PostgreSQL ({@code -Dpg.tests=true}). */
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class ApiEndpointsPostgresTest extends ApiEndpointsContract {
    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
