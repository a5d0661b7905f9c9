package io.stacksexplorer.codec.clarity;

import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes the consensus serialization. Tuple entries are written in the order held, so re-encoding a
 * decoded value reproduces its input byte for byte (what {@code hex} fields in the API must show).
 */
final class ClarityEncoder {

    private ClarityEncoder() {
    }

    static byte[] encode(ClarityValue value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(value, out);
        return out.toByteArray();
    }

    private static void write(ClarityValue value, ByteArrayOutputStream out) {
        out.write(value.typeId());
        if (value instanceof ClarityValue.Int v) {
            writeInt128(v.value(), out);
        } else if (value instanceof ClarityValue.UInt v) {
            writeInt128(v.value(), out);
        } else if (value instanceof ClarityValue.Buffer v) {
            writeSized(v.bytes(), out);
        } else if (value instanceof ClarityValue.StandardPrincipal v) {
            writeAddress(v.address(), out);
        } else if (value instanceof ClarityValue.ContractPrincipal v) {
            ContractId contract = v.contract();
            writeAddress(contract.address(), out);
            writeName(contract.name(), out);
        } else if (value instanceof ClarityValue.ResponseOk v) {
            write(v.value(), out);
        } else if (value instanceof ClarityValue.ResponseErr v) {
            write(v.value(), out);
        } else if (value instanceof ClarityValue.OptionalSome v) {
            write(v.value(), out);
        } else if (value instanceof ClarityValue.ListValue v) {
            writeU32(v.items().size(), out);
            v.items().forEach(item -> write(item, out));
        } else if (value instanceof ClarityValue.Tuple v) {
            writeU32(v.entries().size(), out);
            for (ClarityValue.Tuple.Entry entry : v.entries()) {
                writeName(entry.name(), out);
                write(entry.value(), out);
            }
        } else if (value instanceof ClarityValue.StringAscii v) {
            writeSized(v.value().getBytes(StandardCharsets.US_ASCII), out);
        } else if (value instanceof ClarityValue.StringUtf8 v) {
            writeSized(v.value().getBytes(StandardCharsets.UTF_8), out);
        }
        // Bool and OptionalNone are the prefix alone.
    }

    private static void writeInt128(BigInteger value, ByteArrayOutputStream out) {
        byte[] minimal = value.toByteArray();
        byte pad = value.signum() < 0 ? (byte) 0xff : 0;
        byte[] fixed = new byte[16];
        Arrays.fill(fixed, pad);
        // A u128 above 2^127 has a 17-byte two's complement form whose first byte is the sign pad.
        int copy = Math.min(minimal.length, 16);
        System.arraycopy(minimal, minimal.length - copy, fixed, 16 - copy, copy);
        out.write(fixed, 0, 16);
    }

    private static void writeAddress(StacksAddress address, ByteArrayOutputStream out) {
        out.write(address.version());
        out.write(address.hash160(), 0, StacksAddress.HASH_LENGTH);
    }

    private static void writeName(String name, ByteArrayOutputStream out) {
        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        out.write(bytes.length);
        out.write(bytes, 0, bytes.length);
    }

    private static void writeSized(byte[] bytes, ByteArrayOutputStream out) {
        writeU32(bytes.length, out);
        out.write(bytes, 0, bytes.length);
    }

    private static void writeU32(int value, ByteArrayOutputStream out) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }
}
