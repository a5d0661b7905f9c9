package io.stacksexplorer.conformance.provider;

import io.stacksexplorer.http.TestDatabase;

import au.com.dius.pact.provider.junitsupport.Provider;
import au.com.dius.pact.provider.junitsupport.loader.PactFolder;
import io.stacksexplorer.conformance.Contract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Provider verification on embedded H2 (an in-memory database of this class's own). */
@Provider(Contract.PROVIDER)
@PactFolder(Contract.PACT_FOLDER)
class H2ProviderVerificationTest extends ProviderVerification {

    private static ProviderApp app;

    @BeforeAll
    static void start() {
        app = ProviderApp.start(TestDatabase.H2);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Override
    ProviderApp app() {
        return app;
    }
}
