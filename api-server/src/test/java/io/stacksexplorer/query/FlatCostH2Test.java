package io.stacksexplorer.query;

import io.stacksexplorer.http.TestDatabase;

class FlatCostH2Test extends FlatCostContract {
    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
