package io.stacksexplorer.http;

import org.junit.jupiter.api.condition.EnabledIf;

@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class ReplaceByFeePostgresTest extends ReplaceByFeeContract {
    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
