package io.stacksexplorer.paging;

import io.stacksexplorer.http.TestDatabase;

class CursorH2Test extends CursorContract {
    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
