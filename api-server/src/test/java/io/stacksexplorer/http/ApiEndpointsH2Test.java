package io.stacksexplorer.http;

/** The endpoint contract on the embedded database. */
class ApiEndpointsH2Test extends ApiEndpointsContract {
    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
