package io.stacksexplorer.generate;

import io.stacksexplorer.http.TestDatabase;

class GeneratedLogReplayH2Test extends GeneratedLogReplayContract {
    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
