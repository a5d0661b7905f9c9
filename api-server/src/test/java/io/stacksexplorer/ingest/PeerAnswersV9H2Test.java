package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;

class PeerAnswersV9H2Test extends PeerAnswersV9Contract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
