package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;

/** {@link TodaysChainContract} on H2, the embedded default. */
class TodaysChainH2Test extends TodaysChainContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
