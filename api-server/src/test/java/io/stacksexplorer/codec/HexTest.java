package io.stacksexplorer.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void everyCharacterDecodesAsCharacterDigitSaysForAsciiAndNotAtAllBeyond() {
        for (char c = 0; c < 0x3000; c++) {
            String twice = "" + c + c;
            boolean asciiHex = c < 128 && Character.digit(c, 16) >= 0;
            if (asciiHex) {
                int v = Character.digit(c, 16);
                assertArrayEquals(new byte[] {(byte) (v << 4 | v)}, Hex.decode(twice), "character " + (int) c);
            } else {
                assertThrows(CodecException.class, () -> Hex.decode(twice), "character " + (int) c);
            }
            boolean lower = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
            assertEquals(lower, Hex.isLowerHex("0x" + c, 2), "character " + (int) c);
        }
    }

    @Test
    void isLowerHexLooksOnlyFromTheGivenIndex() {
        assertTrue(Hex.isLowerHex("0x0123456789abcdef", 2));
        assertTrue(Hex.isLowerHex("0x", 2), "nothing to check");
        assertFalse(Hex.isLowerHex("0x", 0), "the prefix's x is not a digit");
        assertFalse(Hex.isLowerHex("0x00A0", 2), "uppercase");
        assertFalse(Hex.isLowerHex("0x00g0", 2));
    }
}
