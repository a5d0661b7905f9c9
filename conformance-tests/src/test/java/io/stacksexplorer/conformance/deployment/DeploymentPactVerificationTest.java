package io.stacksexplorer.conformance.deployment;

import au.com.dius.pact.provider.junit5.PactVerificationContext;
import au.com.dius.pact.provider.junit5.PactVerificationInvocationContextProvider;
import au.com.dius.pact.provider.junitsupport.IgnoreMissingStateChange;
import au.com.dius.pact.provider.junitsupport.Provider;
import au.com.dius.pact.provider.junitsupport.loader.PactFolder;
import io.stacksexplorer.conformance.Contract;
import io.stacksexplorer.conformance.SpecValidatingTarget;
import io.stacksexplorer.conformance.Verifications;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pact interactions that need no provider state (read-only and independent of the data: misses,
 * malformed requests, empty histories, the API status) against a running deployment, each answer
 * also checked against spec/openapi.yaml. Interactions that need seeded data are skipped. Runs only
 * with {@code -Dexplorer.verify.url=http://host:port}.
 */
@Provider(Contract.PROVIDER)
@PactFolder(Contract.PACT_FOLDER)
@IgnoreMissingStateChange
@EnabledIf("io.stacksexplorer.conformance.deployment.Deployment#configured")
class DeploymentPactVerificationTest {

    private SpecValidatingTarget target;

    @BeforeEach
    void pointPactAtDeployment(PactVerificationContext context) {
        target = SpecValidatingTarget.of(Deployment.url());
        context.setTarget(target);
    }

    @TestTemplate
    @ExtendWith(PactVerificationInvocationContextProvider.class)
    void interaction(PactVerificationContext context) {
        assumeTrue(context.getInteraction().getProviderStates().isEmpty(),
                "needs provider state '" + Verifications.describe(context.getInteraction())
                        + "': verified against the embedded server only");
        Verifications.verify(context, target);
    }
}
