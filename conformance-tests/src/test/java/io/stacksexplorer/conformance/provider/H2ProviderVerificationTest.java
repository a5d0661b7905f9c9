package io.stacksexplorer.conformance.provider;

import au.com.dius.pact.provider.junitsupport.Provider;
import au.com.dius.pact.provider.junitsupport.loader.PactFolder;
import io.stacksexplorer.conformance.Contract;
import io.stacksexplorer.http.TestDatabase;

/** Provider verification on embedded H2 (an in-memory database of this class's own). */
@Provider(Contract.PROVIDER)
@PactFolder(Contract.PACT_FOLDER)
class H2ProviderVerificationTest extends ProviderVerification {
    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
