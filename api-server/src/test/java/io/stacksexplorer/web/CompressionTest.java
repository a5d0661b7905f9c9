package io.stacksexplorer.web;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which Accept-Encoding headers take gzip (RFC 9110 section 12.5.3). */
class CompressionTest {

    @Test
    void gzipWhenListedWithAWeightAboveZeroOrCoveredByAStar() {
        for (String accepts : List.of("gzip", "GZIP", "gzip, deflate, br, zstd", "br;q=1.0, gzip;q=0.8", "x-gzip",
                "*", "deflate, *;q=0.1", "gzip;q=0.001", " gzip ; q=1 ")) {
            assertTrue(Compression.acceptsGzip(List.of(accepts)), accepts);
        }
        assertTrue(Compression.acceptsGzip(List.of("deflate", "gzip")), "over several header lines");
    }

    @Test
    void notWhenAbsentRefusedOrOnlyOtherCodings() {
        for (String accepts : List.of("", "identity", "deflate", "br, zstd", "gzip;q=0", "gzip;q=0.000, *",
                "*;q=0", "gzip;q=x", "gzipper")) {
            assertFalse(Compression.acceptsGzip(List.of(accepts)), accepts);
        }
        assertFalse(Compression.acceptsGzip(List.of()));
    }
}
