package io.stacksexplorer.codec;

import java.util.regex.Pattern;

/**
 * The identifier rules of Clarity (stacks-core {@code clarity/src/vm/representations.rs}).
 *
 * <p>Contract names have two rules on purpose: the node only deploys names of 1..40 characters, but
 * for backwards compatibility it still accepts contract principals with names up to 128 bytes inside
 * Clarity values, and its name pattern admits the special {@code __transient}. Decoding wire data
 * must follow the node; parsing what a user typed follows the deploy rule.
 */
public final class ClarityNames {

    public static final int MAX_NAME_LENGTH = 128;
    public static final int MAX_DEPLOYABLE_CONTRACT_NAME_LENGTH = 40;

    private static final Pattern CONTRACT_NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9_-]*");
    private static final String TRANSIENT = "__transient";
    private static final Pattern CLARITY_NAME =
            Pattern.compile("[a-zA-Z][a-zA-Z0-9_!?+<>=/*-]*|[-+=/*]|[<>]=?");

    private ClarityNames() {
    }

    /** A contract name as a deploy would accept it (and as our API accepts it from users). */
    public static boolean isDeployableContractName(String name) {
        return name != null && name.length() <= MAX_DEPLOYABLE_CONTRACT_NAME_LENGTH
                && CONTRACT_NAME.matcher(name).matches();
    }

    /** A contract name inside a Clarity value principal: what the node's value deserializer accepts. */
    public static boolean isContractNameInValue(String name) {
        return name != null && name.length() <= MAX_NAME_LENGTH
                && (CONTRACT_NAME.matcher(name).matches() || TRANSIENT.equals(name));
    }

    /**
     * A contract name in a transaction field (payload, post condition, asset info): the node's
     * {@code ContractName::consensus_deserialize} checks 1..40 bytes and the value pattern.
     */
    public static boolean isContractNameInTransaction(String name) {
        return name != null && !name.isEmpty() && name.length() <= MAX_DEPLOYABLE_CONTRACT_NAME_LENGTH
                && isContractNameInValue(name);
    }

    /** Function names, tuple keys and asset names. */
    public static boolean isClarityName(String name) {
        return name != null && name.length() <= MAX_NAME_LENGTH && CLARITY_NAME.matcher(name).matches();
    }
}
