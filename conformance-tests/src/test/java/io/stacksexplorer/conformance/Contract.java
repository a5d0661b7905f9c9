package io.stacksexplorer.conformance;

import com.atlassian.oai.validator.OpenApiInteractionValidator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/** Names shared by consumer pacts, provider verification and the spec checks. */
public final class Contract {

    /** The provider's name in the pacts. */
    public static final String PROVIDER = "stacks-explorer-api";
    /** The generated Java client, the one consumer. */
    public static final String CONSUMER = "stacks-explorer-java-client";
    /** Where the consumer tests write pacts and the verifications read them (relative to the module). */
    public static final String PACT_FOLDER = "target/pacts";

    private static OpenApiInteractionValidator validator;

    private Contract() {
    }

    /**
     * spec/openapi.yaml (the file named by system property {@code spec.file}, which the build sets;
     * the copy packaged in the spec module otherwise).
     */
    public static String specLocation() {
        String file = System.getProperty("spec.file", "");
        if (!file.isBlank() && Files.isRegularFile(Path.of(file))) {
            return Path.of(file).toUri().toString();
        }
        return Objects.requireNonNull(Contract.class.getClassLoader().getResource("openapi.yaml"),
                "openapi.yaml from the spec module on the test classpath").toString();
    }

    /** One validator for the whole run (parsing the spec takes a moment). */
    public static synchronized OpenApiInteractionValidator specValidator() {
        if (validator == null) {
            validator = OpenApiInteractionValidator.createForSpecificationUrl(specLocation())
                    // The validator rejects properties a schema does not declare; merge allOf parts first,
                    // since each part alone declares only some of a transaction's properties.
                    .withResolveCombinators(true)
                    .build();
        }
        return validator;
    }
}
