package io.stacksexplorer.web;

import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** ETags stay what they were: BodyHash is Commons Codec's MurmurHash3 x64 128-bit, seed 0. */
class BodyHashTest {

    @Test
    void sameAsCommonsCodecForEveryTailLengthAndLargeBodies() {
        Random random = new Random(24);
        for (int length = 0; length < 300; length++) {
            for (int n = 0; n < 20; n++) {
                byte[] data = new byte[length];
                random.nextBytes(data);
                assertArrayEquals(MurmurHash3.hash128x64(data), BodyHash.hash128x64(data), "length " + length);
            }
        }
        byte[] page = new byte[81_625];
        random.nextBytes(page);
        assertArrayEquals(MurmurHash3.hash128x64(page), BodyHash.hash128x64(page));
    }

    @Test
    void hexIsBothHalvesInOrder() {
        byte[] body = "{\"results\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long[] hash = MurmurHash3.hash128x64(body);
        assertEquals(String.format("%016x%016x", hash[0], hash[1]), BodyHash.hex(body));
    }
}
