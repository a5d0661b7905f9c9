package io.stacksexplorer.codec.clarity;

import io.stacksexplorer.codec.ByteReader;
import io.stacksexplorer.codec.ClarityNames;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A Clarity value in its consensus serialization (SIP-005 "Clarity value representation"). The
 * records validate what the node validates, so a value that exists here could have existed on chain.
 */
public sealed interface ClarityValue {

    /** Type prefix bytes of the consensus serialization. */
    int TYPE_INT = 0x00;
    int TYPE_UINT = 0x01;
    int TYPE_BUFFER = 0x02;
    int TYPE_TRUE = 0x03;
    int TYPE_FALSE = 0x04;
    int TYPE_STANDARD_PRINCIPAL = 0x05;
    int TYPE_CONTRACT_PRINCIPAL = 0x06;
    int TYPE_RESPONSE_OK = 0x07;
    int TYPE_RESPONSE_ERR = 0x08;
    int TYPE_NONE = 0x09;
    int TYPE_SOME = 0x0a;
    int TYPE_LIST = 0x0b;
    int TYPE_TUPLE = 0x0c;
    int TYPE_STRING_ASCII = 0x0d;
    int TYPE_STRING_UTF8 = 0x0e;

    /** The node's MAX_VALUE_SIZE: no buffer, string or list may declare more than 1 MiB. */
    int MAX_VALUE_SIZE = 1024 * 1024;

    OptionalNone NONE = new OptionalNone();

    /** The consensus type prefix byte of this value. */
    int typeId();

    /** The Clarity literal as the Stacks API shows it ({@code repr}); see {@link ClarityRepr} for the rules. */
    default String repr() {
        return ClarityRepr.repr(this);
    }

    /** The type the Stacks API derives from a value when no ABI is known, e.g. {@code (buff 20)}. */
    default String typeSignature() {
        return ClarityRepr.typeSignature(this);
    }

    /** The consensus serialization; for any decoded value, exactly the bytes it was decoded from. */
    default byte[] serialize() {
        return ClarityEncoder.encode(this);
    }

    default String serializeHex() {
        return Hex.encode(serialize());
    }

    /** Decodes one whole value; trailing bytes are an error. */
    static ClarityValue decode(byte[] bytes) {
        ByteReader reader = new ByteReader(bytes);
        ClarityValue value = ClarityDecoder.read(reader);
        reader.expectEnd("Clarity value");
        return value;
    }

    /** {@link #decode(byte[])} of hex such as the node's {@code raw_value} / {@code raw_result}. */
    static ClarityValue decodeHex(String hex) {
        return decode(Hex.decode(hex));
    }

    /** Reads one value embedded in a larger structure (a transaction), leaving the reader after it. */
    static ClarityValue read(ByteReader reader) {
        return ClarityDecoder.read(reader);
    }

    /** Signed 128-bit integer. */
    record Int(BigInteger value) implements ClarityValue {
        static final BigInteger MIN = BigInteger.ONE.shiftLeft(127).negate();
        static final BigInteger MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);

        public Int {
            if (value == null || value.compareTo(MIN) < 0 || value.compareTo(MAX) > 0) {
                throw new CodecException("int " + value + " is outside the signed 128-bit range");
            }
        }

        public static Int of(long value) {
            return new Int(BigInteger.valueOf(value));
        }

        @Override
        public int typeId() {
            return TYPE_INT;
        }
    }

    /** Unsigned 128-bit integer. */
    record UInt(BigInteger value) implements ClarityValue {
        static final BigInteger MAX = BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE);

        public UInt {
            if (value == null || value.signum() < 0 || value.compareTo(MAX) > 0) {
                throw new CodecException("uint " + value + " is outside the unsigned 128-bit range");
            }
        }

        public static UInt of(long value) {
            return new UInt(BigInteger.valueOf(value));
        }

        @Override
        public int typeId() {
            return TYPE_UINT;
        }
    }

    /** {@code (buff n)}; the bytes are copied in and out. */
    record Buffer(byte[] bytes) implements ClarityValue {
        public Buffer {
            if (bytes == null || bytes.length > MAX_VALUE_SIZE) {
                throw new CodecException("buffer is missing or larger than " + MAX_VALUE_SIZE + " bytes");
            }
            bytes = bytes.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        public int length() {
            return bytes.length;
        }

        @Override
        public int typeId() {
            return TYPE_BUFFER;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Buffer that && Arrays.equals(bytes, that.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Buffer[" + Hex.encode(bytes) + "]";
        }
    }

    record Bool(boolean value) implements ClarityValue {
        public static final Bool TRUE = new Bool(true);
        public static final Bool FALSE = new Bool(false);

        @Override
        public int typeId() {
            return value ? TYPE_TRUE : TYPE_FALSE;
        }
    }

    record StandardPrincipal(StacksAddress address) implements ClarityValue {
        public StandardPrincipal {
            Objects.requireNonNull(address, "address");
        }

        @Override
        public int typeId() {
            return TYPE_STANDARD_PRINCIPAL;
        }
    }

    record ContractPrincipal(ContractId contract) implements ClarityValue {
        public ContractPrincipal {
            Objects.requireNonNull(contract, "contract");
        }

        @Override
        public int typeId() {
            return TYPE_CONTRACT_PRINCIPAL;
        }
    }

    record ResponseOk(ClarityValue value) implements ClarityValue {
        public ResponseOk {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public int typeId() {
            return TYPE_RESPONSE_OK;
        }
    }

    record ResponseErr(ClarityValue value) implements ClarityValue {
        public ResponseErr {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public int typeId() {
            return TYPE_RESPONSE_ERR;
        }
    }

    record OptionalNone() implements ClarityValue {
        @Override
        public int typeId() {
            return TYPE_NONE;
        }
    }

    record OptionalSome(ClarityValue value) implements ClarityValue {
        public OptionalSome {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public int typeId() {
            return TYPE_SOME;
        }
    }

    /** {@code (list ...)}. Element types are not checked against each other: values come from a type-checked chain. */
    record ListValue(List<ClarityValue> items) implements ClarityValue {
        public ListValue {
            items = List.copyOf(items);
            if (items.size() > MAX_VALUE_SIZE) {
                throw new CodecException("list of " + items.size() + " elements exceeds " + MAX_VALUE_SIZE);
            }
        }

        @Override
        public int typeId() {
            return TYPE_LIST;
        }
    }

    /**
     * {@code (tuple ...)} with entries in serialized order (the node serializes them sorted by name; see
     * {@link ClarityRepr} for how rendering orders them). Names are unique and there is at least one.
     */
    record Tuple(List<Entry> entries) implements ClarityValue {

        /**
         * A tuple from name/value pairs ({@code "amount", uint, "to", principal, …}), its fields
         * sorted by name as the chain's consensus serialization orders them.
         */
        public static Tuple sorted(Object... namesAndValues) {
            TreeMap<String, ClarityValue> byName = new TreeMap<>();
            for (int i = 0; i < namesAndValues.length; i += 2) {
                byName.put((String) namesAndValues[i], (ClarityValue) namesAndValues[i + 1]);
            }
            List<Entry> entries = new ArrayList<>(byName.size());
            byName.forEach((name, value) -> entries.add(new Entry(name, value)));
            return new Tuple(entries);
        }

        public Tuple {
            entries = List.copyOf(entries);
            if (entries.isEmpty()) {
                throw new CodecException("a tuple must have at least one field");
            }
            Set<String> seen = new HashSet<>();
            for (Entry entry : entries) {
                if (!seen.add(entry.name())) {
                    throw new CodecException("duplicate tuple field '" + entry.name() + "'");
                }
            }
        }

        public Optional<ClarityValue> get(String name) {
            return entries.stream().filter(entry -> entry.name().equals(name)).map(Entry::value).findFirst();
        }

        @Override
        public int typeId() {
            return TYPE_TUPLE;
        }

        public record Entry(String name, ClarityValue value) {
            public Entry {
                if (!ClarityNames.isClarityName(name)) {
                    throw new CodecException("invalid tuple field name '" + name + "'");
                }
                Objects.requireNonNull(value, "value");
            }
        }
    }

    /**
     * {@code (string-ascii n)}. The node admits only printable ASCII plus tab, LF, FF and CR
     * ({@code is_ascii_alphanumeric || is_ascii_punctuation || is_ascii_whitespace}).
     */
    record StringAscii(String value) implements ClarityValue {
        public StringAscii {
            if (value == null || value.length() > MAX_VALUE_SIZE) {
                throw new CodecException("string-ascii is missing or longer than " + MAX_VALUE_SIZE);
            }
            for (int i = 0; i < value.length(); i++) {
                if (!isAllowed(value.charAt(i))) {
                    throw new CodecException(String.format(
                            "string-ascii has a disallowed character 0x%02x at index %d", (int) value.charAt(i), i));
                }
            }
        }

        /** Whether the node admits this character in string-ascii (and in contract source, same rule). */
        public static boolean isAllowed(int c) {
            return (c >= 0x20 && c <= 0x7e) || c == '\t' || c == '\n' || c == '\f' || c == '\r';
        }

        @Override
        public int typeId() {
            return TYPE_STRING_ASCII;
        }
    }

    /** {@code (string-utf8 n)}: any valid Unicode text (the node rejects malformed UTF-8). */
    record StringUtf8(String value) implements ClarityValue {
        public StringUtf8 {
            Objects.requireNonNull(value, "value");
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (Character.isHighSurrogate(c) && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                } else if (Character.isSurrogate(c)) {
                    throw new CodecException("string-utf8 has an unpaired surrogate at index " + i);
                }
            }
        }

        @Override
        public int typeId() {
            return TYPE_STRING_UTF8;
        }
    }
}
