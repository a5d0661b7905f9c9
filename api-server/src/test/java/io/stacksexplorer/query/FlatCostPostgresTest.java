package io.stacksexplorer.query;

import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.condition.EnabledIf;

@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class FlatCostPostgresTest extends FlatCostContract {
    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
