package io.stacksexplorer.codec.address;

import io.stacksexplorer.codec.CodecException;

/** Who can hold assets on Stacks: a standard address or a contract. {@code toString()} is the canonical text form. */
public sealed interface Principal permits StacksAddress, ContractId {

    /** The address part: the account itself, or a contract's deployer. */
    StacksAddress address();

    /**
     * Parses {@code SP...} or {@code SP....contract-name}; contract names must follow the deploy rule
     * (see {@link ContractId#parse}).
     */
    static Principal parse(String text) {
        if (text == null) {
            throw new CodecException("principal is null");
        }
        return text.indexOf('.') >= 0 ? ContractId.parse(text) : StacksAddress.parse(text);
    }
}
