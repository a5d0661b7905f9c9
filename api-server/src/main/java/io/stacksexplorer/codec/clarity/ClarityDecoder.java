package io.stacksexplorer.codec.clarity;

import io.stacksexplorer.codec.ByteReader;
import io.stacksexplorer.codec.ClarityNames;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads the consensus serialization. Mirrors stacks-core's {@code Value::deserialize_read}. */
final class ClarityDecoder {

    /**
     * Nesting limit. The node's own type depth limit is 32; 64 leaves room for anything it accepts while
     * keeping a hostile input from exhausting the Java stack.
     */
    static final int MAX_DEPTH = 64;

    private ClarityDecoder() {
    }

    static ClarityValue read(ByteReader reader) {
        return read(reader, 0);
    }

    private static ClarityValue read(ByteReader reader, int depth) {
        int start = reader.offset();
        if (depth >= MAX_DEPTH) {
            throw CodecException.at(start, "Clarity value nested deeper than " + MAX_DEPTH);
        }
        int type = reader.u8("Clarity type prefix");
        try {
            return switch (type) {
                case ClarityValue.TYPE_INT -> new ClarityValue.Int(new BigInteger(reader.bytes(16, "int")));
                case ClarityValue.TYPE_UINT -> new ClarityValue.UInt(new BigInteger(1, reader.bytes(16, "uint")));
                case ClarityValue.TYPE_BUFFER -> new ClarityValue.Buffer(readSized(reader, "buffer"));
                case ClarityValue.TYPE_TRUE -> ClarityValue.Bool.TRUE;
                case ClarityValue.TYPE_FALSE -> ClarityValue.Bool.FALSE;
                case ClarityValue.TYPE_STANDARD_PRINCIPAL -> new ClarityValue.StandardPrincipal(StacksAddress.read(reader));
                case ClarityValue.TYPE_CONTRACT_PRINCIPAL -> new ClarityValue.ContractPrincipal(readContract(reader));
                case ClarityValue.TYPE_RESPONSE_OK -> new ClarityValue.ResponseOk(read(reader, depth + 1));
                case ClarityValue.TYPE_RESPONSE_ERR -> new ClarityValue.ResponseErr(read(reader, depth + 1));
                case ClarityValue.TYPE_NONE -> ClarityValue.NONE;
                case ClarityValue.TYPE_SOME -> new ClarityValue.OptionalSome(read(reader, depth + 1));
                case ClarityValue.TYPE_LIST -> readList(reader, depth);
                case ClarityValue.TYPE_TUPLE -> readTuple(reader, depth);
                case ClarityValue.TYPE_STRING_ASCII -> readAscii(reader);
                case ClarityValue.TYPE_STRING_UTF8 -> readUtf8(reader);
                default -> throw CodecException.at(start, String.format("unknown Clarity type prefix 0x%02x", type));
            };
        } catch (CodecException e) {
            if (e.offset() >= 0) {
                throw e;
            }
            // Record constructors do not know where they are; attach the value's start offset.
            throw CodecException.at(start, e.getMessage());
        }
    }

    private static ContractId readContract(ByteReader reader) {
        StacksAddress address = StacksAddress.read(reader);
        int at = reader.offset();
        String name = reader.shortAscii("contract name");
        if (!ClarityNames.isContractNameInValue(name)) {
            throw CodecException.at(at, "invalid contract name '" + name + "'");
        }
        return new ContractId(address, name);
    }

    private static byte[] readSized(ByteReader reader, String what) {
        int at = reader.offset();
        long length = reader.u32(what + " length");
        if (length > ClarityValue.MAX_VALUE_SIZE) {
            throw CodecException.at(at, what + " length " + length + " exceeds " + ClarityValue.MAX_VALUE_SIZE);
        }
        return reader.bytes(reader.checkedLength(length, what + " length", at), what);
    }

    private static ClarityValue readList(ByteReader reader, int depth) {
        int at = reader.offset();
        long count = reader.u32("list length");
        if (count > ClarityValue.MAX_VALUE_SIZE) {
            throw CodecException.at(at, "list length " + count + " exceeds " + ClarityValue.MAX_VALUE_SIZE);
        }
        int items = reader.checkedLength(count, "list length", at);
        List<ClarityValue> values = new ArrayList<>(Math.min(items, 1024));
        for (int i = 0; i < items; i++) {
            values.add(read(reader, depth + 1));
        }
        return new ClarityValue.ListValue(values);
    }

    private static ClarityValue readTuple(ByteReader reader, int depth) {
        int at = reader.offset();
        long count = reader.u32("tuple field count");
        int fields = reader.checkedLength(count, "tuple field count", at);
        List<ClarityValue.Tuple.Entry> entries = new ArrayList<>(Math.min(fields, 1024));
        for (int i = 0; i < fields; i++) {
            int nameAt = reader.offset();
            String name = reader.shortAscii("tuple field name");
            if (!ClarityNames.isClarityName(name)) {
                throw CodecException.at(nameAt, "invalid tuple field name '" + name + "'");
            }
            entries.add(new ClarityValue.Tuple.Entry(name, read(reader, depth + 1)));
        }
        return new ClarityValue.Tuple(entries);
    }

    private static ClarityValue readAscii(ByteReader reader) {
        int at = reader.offset();
        byte[] bytes = readSized(reader, "string-ascii");
        for (int i = 0; i < bytes.length; i++) {
            if (!ClarityValue.StringAscii.isAllowed(bytes[i] & 0xff)) {
                throw CodecException.at(at + 4 + i,
                        String.format("string-ascii has a disallowed byte 0x%02x", bytes[i] & 0xff));
            }
        }
        return new ClarityValue.StringAscii(new String(bytes, StandardCharsets.US_ASCII));
    }

    private static ClarityValue readUtf8(ByteReader reader) {
        int at = reader.offset();
        byte[] bytes = readSized(reader, "string-utf8");
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
            return new ClarityValue.StringUtf8(text);
        } catch (CharacterCodingException e) {
            throw CodecException.at(at, "string-utf8 is not valid UTF-8");
        }
    }
}
