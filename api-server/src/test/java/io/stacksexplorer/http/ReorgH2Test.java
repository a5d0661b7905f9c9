package io.stacksexplorer.http;

class ReorgH2Test extends ReorgContract {
    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
