package io.stacksexplorer.subscribe;

import io.stacksexplorer.http.TestDatabase;

class SubscriptionsH2Test extends SubscriptionsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
