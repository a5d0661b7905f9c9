package io.stacksexplorer.paging;

import io.stacksexplorer.http.TestDatabase;

class SuccessorRoutesH2Test extends SuccessorRoutesContract {
    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
