package io.stacksexplorer.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ByteReaderTest {

    @Test
    void readsBigEndianUnsignedIntegers() {
        ByteReader reader = new ByteReader(WireBuilder.wire().u8(0xff).u16(0xfffe).u32(0xfffffffdL)
                .hex("ffffffffffffffff").build());
        assertEquals(0xff, reader.u8("a"));
        assertEquals(0xfffe, reader.u16("b"));
        assertEquals(0xfffffffdL, reader.u32("c"));
        assertEquals(new BigInteger("18446744073709551615"), reader.u64("d"));
        assertTrue(reader.atEnd());
    }

    @Test
    void truncationNamesTheFieldAndOffset() {
        ByteReader reader = new ByteReader(new byte[] {1, 2, 3});
        reader.u8("first");
        CodecException e = assertThrows(CodecException.class, () -> reader.u32("chain id"));
        assertEquals(1, e.offset());
        assertEquals("truncated chain id: needs 4 bytes but only 2 remain at byte offset 1", e.getMessage());
    }

    @Test
    void forgedLengthFailsBeforeAllocating() {
        ByteReader reader = new ByteReader(WireBuilder.wire().u32(0xffffffffL).u8(0).build());
        long declared = reader.u32("length");
        CodecException e = assertThrows(CodecException.class,
                () -> reader.checkedLength(declared, "buffer length", 0));
        assertTrue(e.getMessage().contains("4294967295"), e.getMessage());
    }

    @Test
    void rejectsTrailingBytes() {
        ByteReader reader = new ByteReader(new byte[] {1, 2});
        reader.u8("x");
        CodecException e = assertThrows(CodecException.class, () -> reader.expectEnd("value"));
        assertEquals(1, e.offset());
    }

    @Test
    void shortAsciiRejectsNonAscii() {
        ByteReader reader = new ByteReader(new byte[] {2, 'a', (byte) 0xc3});
        assertThrows(CodecException.class, () -> reader.shortAscii("name"));
    }
}
