package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;

class NodeEventsIngestH2Test extends NodeEventsIngestContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
