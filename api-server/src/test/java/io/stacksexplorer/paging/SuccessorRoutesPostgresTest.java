package io.stacksexplorer.paging;

import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.condition.EnabledIf;

@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class SuccessorRoutesPostgresTest extends SuccessorRoutesContract {
    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
