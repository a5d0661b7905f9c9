package io.stacksexplorer.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HexTest {

    @Test
    void encodesLowercaseWithPrefix() {
        assertEquals("0x00ff7fa0", Hex.encode(new byte[] {0, (byte) 0xff, 0x7f, (byte) 0xa0}));
        assertEquals("0x", Hex.encode(new byte[0]));
        assertEquals("00ff", Hex.encodeBare(new byte[] {0, (byte) 0xff}));
    }

    @Test
    void decodesWithOrWithoutPrefixInAnyCase() {
        byte[] expected = {(byte) 0xab, (byte) 0xcd, 0x01};
        assertArrayEquals(expected, Hex.decode("0xabcd01"));
        assertArrayEquals(expected, Hex.decode("0XABCD01"));
        assertArrayEquals(expected, Hex.decode("AbCd01"));
        assertArrayEquals(new byte[0], Hex.decode("0x"));
        assertArrayEquals(new byte[0], Hex.decode(""));
    }

    @Test
    void rejectsOddLength() {
        CodecException e = assertThrows(CodecException.class, () -> Hex.decode("0xabc"));
        assertTrue(e.getMessage().contains("odd"), e.getMessage());
    }

    @Test
    void rejectsNonHexWithItsPosition() {
        CodecException e = assertThrows(CodecException.class, () -> Hex.decode("0x00zz"));
        assertEquals(4, e.offset());
        assertTrue(e.getMessage().contains("'z'") && e.getMessage().endsWith("at character 4"), e.getMessage());
        // Unicode digits are digits to Character.digit but not hex on the wire.
        assertThrows(CodecException.class, () -> Hex.decode("\uff10\uff10"));
        assertThrows(CodecException.class, () -> Hex.decode(null));
    }
}
