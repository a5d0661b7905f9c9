package io.stacksexplorer.conformance;

import au.com.dius.pact.core.model.Interaction;
import au.com.dius.pact.core.model.ProviderState;
import au.com.dius.pact.provider.junit5.PactVerificationContext;

import java.util.stream.Collectors;

/** Running one pact interaction against a {@link SpecValidatingTarget}, with failures that name it. */
public final class Verifications {

    private Verifications() {
    }

    /**
     * Verifies the context's interaction: Pact compares the answer with the consumer's expectation,
     * then the answer is checked against the spec. Either failure names the interaction and its
     * provider states.
     */
    public static void verify(PactVerificationContext context, SpecValidatingTarget target) {
        String name = describe(context.getInteraction());
        target.reset();
        try {
            context.verifyInteraction();
        } catch (AssertionError e) {
            AssertionError failure = new AssertionError("Interaction '" + name + "' broke the pact:\n" + e.getMessage());
            failure.setStackTrace(e.getStackTrace());
            throw failure;
        }
        target.assertAnswerConformed(name);
    }

    public static String describe(Interaction interaction) {
        String states = interaction.getProviderStates().stream()
                .map(ProviderState::getName).collect(Collectors.joining(", "));
        return interaction.getDescription() + (states.isEmpty() ? "" : "' given '" + states);
    }
}
