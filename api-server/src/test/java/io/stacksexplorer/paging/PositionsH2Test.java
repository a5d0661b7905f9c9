package io.stacksexplorer.paging;

import io.stacksexplorer.http.TestDatabase;

class PositionsH2Test extends PositionsContract {
    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
