package io.stacksexplorer.codec.clarity;

import static io.stacksexplorer.codec.WireBuilder.wire;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.WireBuilder;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClarityValueTest {

    private static final String ZERO_HASH = "0000000000000000000000000000000000000000";

    private static ClarityValue decode(WireBuilder bytes) {
        byte[] raw = bytes.build();
        ClarityValue value = ClarityValue.decode(raw);
        assertArrayEquals(raw, value.serialize(), "re-encoding must reproduce the input");
        return value;
    }

    private static void assertRendered(String repr, String type, WireBuilder bytes) {
        ClarityValue value = decode(bytes);
        assertEquals(repr, value.repr());
        assertEquals(type, value.typeSignature());
    }

    @Test
    void integers() {
        assertRendered("-5", "int", wire().u8(0x00).hex("fffffffffffffffffffffffffffffffb"));
        assertRendered("u150", "uint", wire().u8(0x01).hex("00000000000000000000000000000096"));
        assertRendered("u340282366920938463463374607431768211455", "uint",
                wire().u8(0x01).hex("ffffffffffffffffffffffffffffffff"));
        assertRendered("-170141183460469231731687303715884105728", "int",
                wire().u8(0x00).hex("80000000000000000000000000000000"));
        assertRendered("170141183460469231731687303715884105727", "int",
                wire().u8(0x00).hex("7fffffffffffffffffffffffffffffff"));
        assertEquals(new ClarityValue.Int(BigInteger.valueOf(-5)),
                ClarityValue.decodeHex("0x00fffffffffffffffffffffffffffffffb"));
    }

    @Test
    void buffersAndBooleans() {
        assertRendered("0x", "(buff 0)", wire().u8(0x02).u32(0));
        assertRendered("0x00ff", "(buff 2)", wire().u8(0x02).u32(2).hex("00ff"));
        assertRendered("true", "bool", wire().u8(0x03));
        assertRendered("false", "bool", wire().u8(0x04));
    }

    @Test
    void principalsCarryALeadingApostrophe() {
        assertRendered("'SP000000000000000000002Q6VF78", "principal", wire().u8(0x05).u8(22).hex(ZERO_HASH));
        assertRendered("'ST000000000000000000002AMW42H.pox-4", "principal",
                wire().u8(0x06).u8(26).hex(ZERO_HASH).name("pox-4"));
    }

    @Test
    void responsesAndOptionals() {
        assertRendered("(ok true)", "(response bool UnknownType)", wire().u8(0x07).u8(0x03));
        assertRendered("(err u12)", "(response UnknownType uint)",
                wire().u8(0x08).u8(0x01).hex("0000000000000000000000000000000c"));
        assertRendered("none", "(optional UnknownType)", wire().u8(0x09));
        assertRendered("(some 0x01)", "(optional (buff 1))", wire().u8(0x0a).u8(0x02).u32(1).u8(1));
        assertRendered("(err none)", "(response UnknownType (optional UnknownType))", wire().u8(0x08).u8(0x09));
    }

    @Test
    void listsRenderWithoutASpaceWhenEmpty() {
        assertRendered("(list)", "(list 0 UnknownType)", wire().u8(0x0b).u32(0));
        assertRendered("(list 1 -1)", "(list 2 int)", wire().u8(0x0b).u32(2)
                .u8(0x00).hex("00000000000000000000000000000001")
                .u8(0x00).hex("ffffffffffffffffffffffffffffffff"));
    }

    @Test
    void tuplesRenderSortedButSerializeInWireOrder() {
        WireBuilder unsorted = wire().u8(0x0c).u32(2)
                .name("b").u8(0x02).u32(1).u8(0)
                .name("a").u8(0x01).hex("00000000000000000000000000000001");
        assertRendered("(tuple (a u1) (b 0x00))", "(tuple (a uint) (b (buff 1)))", unsorted);
        ClarityValue.Tuple tuple = (ClarityValue.Tuple) decode(unsorted);
        assertEquals(List.of("b", "a"), tuple.entries().stream().map(ClarityValue.Tuple.Entry::name).toList());
        assertEquals(Optional.of(ClarityValue.UInt.of(1)), tuple.get("a"));
        assertEquals(Optional.empty(), tuple.get("c"));
    }

    @Test
    void peerExampleTuple() {
        // A pox stack-stx argument as the peer API shows it.
        ClarityValue value = ClarityValue.decodeHex("0x0c000000020968617368627974657302000000149844a4c3fc6cfdd8"
                + "a780d38a951a98fe357d8cf10776657273696f6e020000000101");
        assertEquals("(tuple (hashbytes 0x9844a4c3fc6cfdd8a780d38a951a98fe357d8cf1) (version 0x01))", value.repr());
        assertEquals("(tuple (hashbytes (buff 20)) (version (buff 1)))", value.typeSignature());
    }

    @Test
    void asciiStringsUseRustEscapeDefault() {
        String text = "He said \"hi\"\n\t'x'\\\r\f~";
        assertRendered("\"He said \\\"hi\\\"\\n\\t\\'x\\'\\\\\\r\\x0c~\"", "(string-ascii 21)",
                wire().u8(0x0d).sized(text.getBytes(StandardCharsets.US_ASCII)));
        assertRendered("\"\"", "(string-ascii 0)", wire().u8(0x0d).u32(0));
    }

    @Test
    void utf8StringsEscapeEachNonAsciiCharacterAsItsUtf8Bytes() {
        String text = "h\u00e9llo \ud83d\udc3b\"";
        assertRendered("u\"h\\u{c3a9}llo \\u{f09f90bb}\\\"\"", "(string-utf8 32)",
                wire().u8(0x0e).sized(text.getBytes(StandardCharsets.UTF_8)));
        assertEquals(text, ((ClarityValue.StringUtf8) ClarityValue.decode(
                wire().u8(0x0e).sized(text.getBytes(StandardCharsets.UTF_8)).build())).value());
    }

    @Test
    void nestedValue() {
        WireBuilder bytes = wire().u8(0x07).u8(0x0c).u32(3)
                .name("lock-amount").u8(0x01).hex("00000000000000000000003ad11640fc")
                .name("stacker").u8(0x05).u8(22).hex("1779d78a9a68bc61911f1be6176960f164f3db48")
                .name("unlock-burn-height").u8(0x01).hex("000000000000000000000000000a3a2a");
        assertEquals("(ok (tuple (lock-amount u252615999740) (stacker 'SPBQKNWAK9MBRRCH3WDYC5V9C3RP9WYV903N7QPT)"
                + " (unlock-burn-height u670250)))", decode(bytes).repr());
    }

    @Test
    void rejectsUnknownPrefixesAndTrailingBytes() {
        CodecException unknown = assertThrows(CodecException.class, () -> ClarityValue.decodeHex("0x0f"));
        assertEquals(0, unknown.offset());
        assertTrue(unknown.getMessage().contains("0x0f"), unknown.getMessage());
        CodecException trailing = assertThrows(CodecException.class, () -> ClarityValue.decodeHex("0x030a"));
        assertEquals(1, trailing.offset());
        assertThrows(CodecException.class, () -> ClarityValue.decodeHex("0x"));
        assertThrows(CodecException.class, () -> ClarityValue.decodeHex("0x0g"));
    }

    @Test
    void rejectsTruncation() {
        CodecException e = assertThrows(CodecException.class, () -> ClarityValue.decodeHex("0x0100"));
        assertEquals(1, e.offset());
        assertTrue(e.getMessage().startsWith("truncated uint"), e.getMessage());
    }

    @Test
    void rejectsLengthsThatExceedTheInput() {
        CodecException huge = assertThrows(CodecException.class,
                () -> ClarityValue.decode(wire().u8(0x02).u32(0xffffffffL).build()));
        assertTrue(huge.getMessage().contains("exceeds"), huge.getMessage());
        CodecException lying = assertThrows(CodecException.class,
                () -> ClarityValue.decode(wire().u8(0x0d).u32(100).hex("4142").build()));
        assertTrue(lying.getMessage().contains("declares 100 but only 2"), lying.getMessage());
        assertThrows(CodecException.class, () -> ClarityValue.decode(wire().u8(0x0b).u32(0x00ffffff).build()));
        assertThrows(CodecException.class, () -> ClarityValue.decode(wire().u8(0x0c).u32(0xffffffffL).build()));
    }

    @Test
    void limitsNestingDepthTo64() {
        assertInstanceOf(ClarityValue.OptionalSome.class,
                ClarityValue.decode(wire().fill(63, 0x0a).u8(0x03).build()));
        CodecException e = assertThrows(CodecException.class,
                () -> ClarityValue.decode(wire().fill(64, 0x0a).u8(0x03).build()));
        assertEquals(64, e.offset());
        // Far deeper than any stack: still a clean error.
        assertThrows(CodecException.class, () -> ClarityValue.decode(wire().fill(100_000, 0x0b).build()));
    }

    @Test
    void rejectsStringsTheNodeWouldReject() {
        assertThrows(CodecException.class, () -> ClarityValue.decode(wire().u8(0x0d).u32(1).u8(0x80).build()));
        CodecException bell = assertThrows(CodecException.class,
                () -> ClarityValue.decode(wire().u8(0x0d).u32(2).u8('a').u8(0x07).build()));
        assertEquals(6, bell.offset());
        assertThrows(CodecException.class, () -> ClarityValue.decode(wire().u8(0x0e).u32(2).hex("c328").build()));
        assertThrows(CodecException.class, () -> ClarityValue.decode(wire().u8(0x0e).u32(3).hex("eda080").build()));
    }

    @Test
    void rejectsInvalidNamesAndTuples() {
        assertThrows(CodecException.class,
                () -> ClarityValue.decode(wire().u8(0x06).u8(22).hex(ZERO_HASH).name("1bad").build()));
        assertThrows(CodecException.class,
                () -> ClarityValue.decode(wire().u8(0x06).u8(22).hex(ZERO_HASH).name("").build()));
        assertThrows(CodecException.class,
                () -> ClarityValue.decode(wire().u8(0x05).u8(32).hex(ZERO_HASH).build()));
        assertThrows(CodecException.class, () -> ClarityValue.decode(wire().u8(0x0c).u32(0).build()));
        CodecException duplicate = assertThrows(CodecException.class, () -> ClarityValue.decode(wire()
                .u8(0x0c).u32(2).name("a").u8(0x03).name("a").u8(0x04).build()));
        assertTrue(duplicate.getMessage().contains("duplicate"), duplicate.getMessage());
        assertThrows(CodecException.class,
                () -> ClarityValue.decode(wire().u8(0x0c).u32(1).name("a b").u8(0x03).build()));
    }

    @Test
    void longLegacyContractNamesInsideValuesDecode() {
        String name = "a".repeat(128);
        ClarityValue value = decode(wire().u8(0x06).u8(22).hex(ZERO_HASH).name(name));
        assertEquals("'SP000000000000000000002Q6VF78." + name, value.repr());
    }

    @Test
    void recordsGuardTheirRanges() {
        assertThrows(CodecException.class, () -> new ClarityValue.UInt(BigInteger.valueOf(-1)));
        assertThrows(CodecException.class, () -> new ClarityValue.UInt(BigInteger.ONE.shiftLeft(128)));
        assertThrows(CodecException.class, () -> new ClarityValue.Int(BigInteger.ONE.shiftLeft(127)));
        assertThrows(CodecException.class, () -> new ClarityValue.StringAscii("\u00e9"));
        assertThrows(CodecException.class, () -> new ClarityValue.StringUtf8("\ud83d"));
        byte[] bytes = {1, 2};
        ClarityValue.Buffer buffer = new ClarityValue.Buffer(bytes);
        bytes[0] = 9;
        assertEquals(new ClarityValue.Buffer(new byte[] {1, 2}), buffer);
        assertEquals("0x0102", buffer.repr());
    }

    @Test
    void encodesBuiltValues() {
        assertEquals("0x00fffffffffffffffffffffffffffffffb", ClarityValue.Int.of(-5).serializeHex());
        assertEquals("0x01ffffffffffffffffffffffffffffffff",
                new ClarityValue.UInt(ClarityValue.UInt.MAX).serializeHex());
        assertEquals("0x0a09", new ClarityValue.OptionalSome(ClarityValue.NONE).serializeHex());
        assertEquals("0x0b0000000103", new ClarityValue.ListValue(List.of(ClarityValue.Bool.TRUE)).serializeHex());
        assertEquals(Hex.encode(wire().u8(0x0e).u32(2).hex("c3a9").build()),
                new ClarityValue.StringUtf8("\u00e9").serializeHex());
    }

    @Test
    void sortedTupleOrdersFieldsByNameWhateverTheArgumentOrder() {
        ClarityValue.Tuple t = ClarityValue.Tuple.sorted("to", ClarityValue.UInt.of(2), "amount", ClarityValue.UInt.of(1));
        assertEquals(List.of("amount", "to"), t.entries().stream().map(ClarityValue.Tuple.Entry::name).toList());
        assertEquals(t.serializeHex(),
                ClarityValue.Tuple.sorted("amount", ClarityValue.UInt.of(1), "to", ClarityValue.UInt.of(2)).serializeHex());
    }

    @Test
    void tokenTransferMemoIsThirtyFourBytesPaddedOrCut() {
        String memo = io.stacksexplorer.codec.tx.TransactionPayload.TokenTransfer.memoOf("gm");
        assertEquals("0x676d" + "00".repeat(32), memo);
        String cut = io.stacksexplorer.codec.tx.TransactionPayload.TokenTransfer.memoOf("x".repeat(40));
        assertEquals("0x" + "78".repeat(34), cut);
    }
}
