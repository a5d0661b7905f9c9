package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;

class ObserverGuaranteesH2Test extends ObserverGuaranteesContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
