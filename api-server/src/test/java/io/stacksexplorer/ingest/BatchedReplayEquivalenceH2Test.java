package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;

/** On the embedded H2. */
class BatchedReplayEquivalenceH2Test extends BatchedReplayEquivalenceContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
