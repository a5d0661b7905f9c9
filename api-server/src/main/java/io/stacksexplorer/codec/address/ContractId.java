package io.stacksexplorer.codec.address;

import io.stacksexplorer.codec.ClarityNames;
import io.stacksexplorer.codec.CodecException;

/**
 * A contract principal {@code <address>.<name>}. The constructor admits every name the node admits in
 * wire data (up to 128 bytes); {@link #parse} is stricter because it reads what users type.
 */
public record ContractId(StacksAddress address, String name) implements Principal {

    public ContractId {
        if (address == null) {
            throw new CodecException("contract address is null");
        }
        if (!ClarityNames.isContractNameInValue(name)) {
            throw new CodecException("invalid contract name '" + name + "'");
        }
    }

    /**
     * Parses {@code SP....name}: the address must pass its checksum and the name must be deployable
     * ({@code ^[a-zA-Z][a-zA-Z0-9_-]*$}, 1..40 characters; the node-internal {@code __transient} is refused).
     */
    public static ContractId parse(String text) {
        if (text == null) {
            throw new CodecException("contract id is null");
        }
        int dot = text.indexOf('.');
        if (dot < 0) {
            throw new CodecException("contract id '" + text + "' has no '.'");
        }
        String name = text.substring(dot + 1);
        if (!ClarityNames.isDeployableContractName(name)) {
            throw new CodecException("invalid contract name '" + name + "' in '" + text + "'");
        }
        return new ContractId(StacksAddress.parse(text.substring(0, dot)), name);
    }

    @Override
    public String toString() {
        return address + "." + name;
    }
}
