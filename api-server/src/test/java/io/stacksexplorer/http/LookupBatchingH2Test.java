package io.stacksexplorer.http;

/** Lookup batching on the embedded database. */
class LookupBatchingH2Test extends LookupBatchingContract {
    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
