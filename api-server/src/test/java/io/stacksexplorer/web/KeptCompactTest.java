package io.stacksexplorer.web;

import io.micronaut.http.server.netty.configuration.NettyHttpServerConfiguration;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A large answer kept as its gzip coding alone ({@link HttpCaching.Rendered#compact}): the same bytes, tag and length. */
class KeptCompactTest {

    private final Compression compression = new Compression(new NettyHttpServerConfiguration());

    /** About 50 KB of JSON shaped like a lookup of 20 transactions: keys repeated, ids and hex different. */
    private static byte[] lookupLike() {
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < 20; i++) {
            json.append(i == 0 ? "" : ",").append("\"0x").append(String.format("%064x", i * 7919L)).append("\":{\"found\":true,"
                    + "\"result\":{\"tx_status\":\"success\",\"events\":[");
            for (int e = 0; e < 12; e++) {
                json.append(e == 0 ? "" : ",").append("{\"event_index\":").append(e)
                        .append(",\"event_type\":\"smart_contract_log\",\"contract_log\":{\"value\":{\"hex\":\"0x")
                        .append(String.format("%040x", (long) i * 131 + e * 17L)).append("\",\"repr\":\"u")
                        .append(i * 1000 + e).append("\"}}}");
            }
            json.append("]}}");
        }
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCompactAnswerIsTheSameAnswerInAFractionOfTheHeap() {
        byte[] json = lookupLike();
        assertTrue(json.length >= AnswerCache.COMPACT_FROM, "an answer the cache keeps compact: " + json.length);
        HttpCaching.Rendered full = new HttpCaching.Rendered(json);
        HttpCaching.Rendered compact = full.compact(compression);
        assertArrayEquals(json, compact.json());
        assertArrayEquals(json, Compression.gunzip(compact.gzipped(compression), compact.length()));
        assertEquals(full.hash, compact.hash);
        assertEquals(json.length, compact.length());
        assertSame(compact, compact.compact(compression));
        assertTrue(compact.heldBytes() * 4 < json.length, compact.heldBytes() + " bytes held for " + json.length);
    }

    @Test
    void anAnswerThatDoesNotInflateToItsLengthIsRefused() {
        byte[] json = lookupLike();
        byte[] gzipped = compression.gzip(json);
        assertThrows(IllegalStateException.class, () -> Compression.gunzip(gzipped, json.length - 1));
        assertThrows(IllegalStateException.class, () -> Compression.gunzip(gzipped, json.length + 1));
        assertThrows(RuntimeException.class, () -> Compression.gunzip(Arrays.copyOf(gzipped, gzipped.length / 2), json.length));
    }
}
