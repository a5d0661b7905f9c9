package io.stacksexplorer.ingest;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Hex fields of node payloads: 0x-prefixed, even length, lower-cased; anything else is a malformed payload. */
class NodePayloadsHexTest {

    @Test
    void hexIsLowerCased() {
        assertEquals("0xabcdef0123456789", NodePayloads.normalizeHex("0xABCDEF0123456789", "raw_tx"));
        assertEquals("0x", NodePayloads.normalizeHex("0x", "raw_tx"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abcd", "0xabc", "0xzz", "0x12g4", "0x1 ", "0x١٢", "0xab\\n", ""})
    void anythingElseIsMalformed(String text) {
        assertThrows(MalformedPayloadException.class, () -> NodePayloads.normalizeHex(text, "raw_tx"));
    }
}
