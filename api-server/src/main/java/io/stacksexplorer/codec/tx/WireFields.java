package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.ByteReader;
import io.stacksexplorer.codec.ClarityNames;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;

/** Field types that several parts of a transaction share, read with the node's rules for transactions. */
final class WireFields {

    private WireFields() {
    }

    static String hex(ByteReader reader, int length, String what) {
        return Hex.encode(reader.bytes(length, what));
    }

    /** stacks-core {@code ContractName::consensus_deserialize}: 1..40 bytes, stricter than inside values. */
    static String contractName(ByteReader reader, String what) {
        int at = reader.offset();
        String name = reader.shortAscii(what);
        if (!ClarityNames.isContractNameInTransaction(name)) {
            throw CodecException.at(at, "invalid " + what + " '" + name + "'");
        }
        return name;
    }

    static String clarityName(ByteReader reader, String what) {
        int at = reader.offset();
        String name = reader.shortAscii(what);
        if (!ClarityNames.isClarityName(name)) {
            throw CodecException.at(at, "invalid " + what + " '" + name + "'");
        }
        return name;
    }

    /** Address then contract name, as in contract calls, post-condition principals and asset infos. */
    static ContractId contract(ByteReader reader, String what) {
        StacksAddress address = StacksAddress.read(reader);
        return new ContractId(address, contractName(reader, what + " name"));
    }

    /** A principal in its Clarity value encoding (0x05 standard, 0x06 contract). */
    static Principal principalValue(ByteReader reader, String what) {
        int at = reader.offset();
        ClarityValue value = ClarityValue.read(reader);
        if (value instanceof ClarityValue.StandardPrincipal standard) {
            return standard.address();
        }
        if (value instanceof ClarityValue.ContractPrincipal contract) {
            return contract.contract();
        }
        throw CodecException.at(at, what + " must be a principal value, found type prefix " + value.typeId());
    }
}
