package io.stacksexplorer.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Sha512_256Test {

    @Test
    void matchesFips180Vectors() {
        // NIST example values for SHA-512/256; a truncated SHA-512 would give different digests.
        assertEquals("0x53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
                Hex.encode(Sha512_256.hash("abc".getBytes(StandardCharsets.US_ASCII))));
        assertEquals("0xc672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a",
                Hex.encode(Sha512_256.hash(new byte[0])));
    }

    @Test
    void txIdIsPrefixedLowercaseHex() {
        assertEquals("0x53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
                Sha512_256.txId("abc".getBytes(StandardCharsets.US_ASCII)));
    }
}
