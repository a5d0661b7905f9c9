package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;

class AfterAnswerDerivationH2Test extends AfterAnswerDerivationContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
