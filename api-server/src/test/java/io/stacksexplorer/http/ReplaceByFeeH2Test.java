package io.stacksexplorer.http;

class ReplaceByFeeH2Test extends ReplaceByFeeContract {
    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
