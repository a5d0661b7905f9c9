package io.stacksexplorer.codec.address;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import java.util.Random;
import org.junit.jupiter.api.Test;

class C32Test {

    /** stacks-core c32.rs {@code test_simple}: hex input and its c32 encoding. */
    private static final String[][] ENCODINGS = {
        {"a46ff88886c2ef9762d970b4d2c63678835bd39d", "MHQZH246RBQSERPSE2TD5HHPF21NQMWX"},
        {"", ""},
        {"0000000000000000000000000000000000000000", "00000000000000000000"},
        {"0000000000000000000000000000000000000001", "00000000000000000001"},
        {"1000000000000000000000000000000000000001", "20000000000000000000000000000001"},
        {"1000000000000000000000000000000000000000", "20000000000000000000000000000000"},
        {"01", "1"},
        {"22", "12"},
        {"0001", "01"},
        {"000001", "001"},
        {"00000001", "0001"},
        {"10", "G"},
        {"0100", "80"},
        {"1000", "400"},
        {"010000", "2000"},
        {"100000", "10000"},
        {"01000000", "G0000"},
        {"10000000", "800000"},
        {"0100000000", "4000000"},
    };

    @Test
    void encodesAndDecodesReferenceVectors() {
        for (String[] vector : ENCODINGS) {
            byte[] bytes = Hex.decode(vector[0]);
            assertEquals(vector[1], C32.encode(bytes), "encode " + vector[0]);
            assertArrayEquals(bytes, C32.decode(vector[1]), "decode " + vector[1]);
        }
    }

    @Test
    void eachLeadingZeroByteIsOneZeroCharacter() {
        assertEquals("0", C32.encode(new byte[1]));
        assertEquals("000", C32.encode(new byte[3]));
        assertEquals("00" + "1", C32.encode(new byte[] {0, 0, 1}));
        assertArrayEquals(new byte[] {0, 0, 0}, C32.decode("000"));
        // Leading zero digits that are part of a non-zero value still add zero bytes, exactly as the node does.
        assertArrayEquals(new byte[] {0, 1}, C32.decode("01"));
    }

    @Test
    void decodingNormalisesLikeTheNode() {
        assertArrayEquals(C32.decode("MHQZH246RBQSERPSE2TD5HHPF21NQMWX"), C32.decode("mhqzh246rbqserpse2td5hhpf21nqmwx"));
        assertArrayEquals(C32.decode("01"), C32.decode("oI"));
        assertArrayEquals(C32.decode("01"), C32.decode("OL"));
        assertArrayEquals(C32.decode("11"), C32.decode("il"));
    }

    @Test
    void rejectsCharactersOutsideTheAlphabet() {
        CodecException e = assertThrows(CodecException.class, () -> C32.decode("12U4"));
        assertEquals(2, e.offset());
        assertThrows(CodecException.class, () -> C32.decode("12-4"));
        // A mathematical bold digit zero: a digit to Unicode, not to c32.
        assertThrows(CodecException.class, () -> C32.decode("1\uD835\uDFD82"));
    }

    @Test
    void checkEncodingDetectsCorruption() {
        String encoded = C32.checkEncode(22, Hex.decode("a46ff88886c2ef9762d970b4d2c63678835bd39d"));
        assertEquals("P2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7", encoded);
        C32.Decoded decoded = C32.checkDecode(encoded);
        assertEquals(22, decoded.version());
        String corrupted = encoded.substring(0, 10) + (encoded.charAt(10) == 'A' ? 'B' : 'A') + encoded.substring(11);
        CodecException e = assertThrows(CodecException.class, () -> C32.checkDecode(corrupted));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        assertThrows(CodecException.class, () -> C32.checkDecode("P"));
        assertThrows(CodecException.class, () -> C32.checkDecode("P00"));
        assertThrows(CodecException.class, () -> C32.checkEncode(32, new byte[20]));
    }

    @Test
    void randomHashesRoundTrip() {
        Random random = new Random(20240601L);
        for (int i = 0; i < 2000; i++) {
            byte[] data = new byte[random.nextInt(33)];
            random.nextBytes(data);
            // Bias towards leading zero bytes, where c32 is easiest to get wrong.
            int zeros = random.nextInt(4) == 0 ? Math.min(data.length, random.nextInt(6)) : 0;
            for (int z = 0; z < zeros; z++) {
                data[z] = 0;
            }
            assertArrayEquals(data, C32.decode(C32.encode(data)), Hex.encode(data));
            int version = random.nextInt(32);
            C32.Decoded decoded = C32.checkDecode(C32.checkEncode(version, data));
            assertEquals(version, decoded.version());
            assertArrayEquals(data, decoded.data());
        }
    }
}
