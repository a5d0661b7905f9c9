package io.stacksexplorer.conformance.provider;

import au.com.dius.pact.provider.junit5.PactVerificationContext;
import au.com.dius.pact.provider.junit5.PactVerificationInvocationContextProvider;
import io.stacksexplorer.conformance.SpecValidatingTarget;
import io.stacksexplorer.conformance.Verifications;
import io.stacksexplorer.conformance.provider.states.AddressStates;
import io.stacksexplorer.conformance.provider.states.BlockStates;
import io.stacksexplorer.conformance.provider.states.SmartContractStates;
import io.stacksexplorer.conformance.provider.states.SubscriptionStates;
import io.stacksexplorer.conformance.provider.states.TransactionStates;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Verifies every interaction of the pacts in target/pacts against the real server: provider states
 * seed data through the application's write path, Pact compares each answer with the consumer's
 * expectation, and {@link SpecValidatingTarget} checks it against spec/openapi.yaml. Subclasses
 * choose the database; each class runs one server over a fresh database of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ProviderVerification {

    private SpecValidatingTarget target;
    private ProviderApp app;

    abstract TestDatabase database();

    @BeforeAll
    void startServer() {
        app = ProviderApp.start(database());
    }

    @AfterAll
    void stopServer() {
        if (app != null) {
            app.close();
        }
    }

    ProviderApp app() {
        return app;
    }

    @BeforeEach
    void pointPactAtServer(PactVerificationContext context) {
        target = new SpecValidatingTarget("127.0.0.1", app().port(), "");
        context.setTarget(target);
        context.withStateChangeHandlers(new BlockStates(app().seed()), new TransactionStates(app().seed()),
                new SmartContractStates(app().seed()), new AddressStates(app().seed()),
                new SubscriptionStates(app().seed()));
    }

    @TestTemplate
    @ExtendWith(PactVerificationInvocationContextProvider.class)
    void interaction(PactVerificationContext context) {
        Verifications.verify(context, target);
    }
}
