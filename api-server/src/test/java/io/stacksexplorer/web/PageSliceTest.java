package io.stacksexplorer.web;

import io.micronaut.http.server.netty.configuration.NettyHttpServerConfiguration;
import io.micronaut.serde.ObjectMapper;
import io.stacksexplorer.server.model.AddressTransaction;
import io.stacksexplorer.server.model.AddressTransactionPage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A page spliced from kept rows is byte for byte the page its whole model renders to, whatever the
 * envelope around the rows (AnswerInvalidationPostgresTest checks the same against a server that
 * renders whole models, over HTTP).
 */
class PageSliceTest {

    private final ObjectMapper json = ObjectMapper.getDefault();
    private final Compression compression = new Compression(new NettyHttpServerConfiguration());

    @Test
    void aSplicedPageIsTheWholeModelsBody() throws Exception {
        for (int rows : new int[]{0, 1, 20}) {
            List<AddressTransaction> results = rows(rows);
            PageSlice slice = PageSlice.of(json, compression, results, rows == 0 ? null : "next-" + rows);
            assertEquals(rows == 0, slice.empty());
            // The same rows under envelopes of different offsets and totals, as after the list grew.
            for (long total : new long[]{rows, 3_000, 6_788}) {
                AddressTransactionPage whole = new AddressTransactionPage(20, 40, total, results, slice.next(),
                        "current", total == rows ? null : "previous");
                AddressTransactionPage envelope = new AddressTransactionPage(20, 40, total, List.of(), slice.next(),
                        "current", total == rows ? null : "previous");
                byte[] expected = json.writeValueAsBytes(whole);
                HttpCaching.Rendered spliced = slice.splice(json, envelope);
                assertArrayEquals(expected, spliced.json(), rows + " rows, total " + total);
                assertArrayEquals(expected, spliced.json(), "inflated again");
                assertEquals(expected.length, spliced.length());
                assertEquals(BodyHash.hex(expected), spliced.hash, "the tag is the whole body's");
                assertArrayEquals(expected, Compression.gunzip(spliced.gzipped(compression), expected.length));
                assertEquals(expected.length >= AnswerCache.COMPACT_FROM, spliced.isCompact(),
                        "a large answer holds no JSON of its own (never compacted again), a small one its JSON");
            }
        }
    }

    @Test
    void aSplicedAnswerHoldsItsRowsCompressed() throws Exception {
        List<AddressTransaction> results = rows(20);
        PageSlice slice = PageSlice.of(json, compression, results, "next");
        HttpCaching.Rendered spliced = slice.splice(json,
                new AddressTransactionPage(20, 0, 20L, List.of(), "next", "current", null));
        assertTrue(spliced.heldBytes() * 3 < spliced.length(), spliced.heldBytes() + " of " + spliced.length());
        assertTrue(slice.weight() < spliced.length() / 3, slice.weight() + " of " + spliced.length());
    }

    @Test
    void aModelWithoutResultsCannotBeSplicedInto() {
        PageSlice slice = PageSlice.of(json, compression, rows(1), null);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> slice.splice(json, Map.of("limit", 20, "total", 1)));
        assertFalse(e.getMessage().isEmpty());
    }

    /** Rows whose text repeats as a page's does (keys, amounts) and differs (ids), with quotes and non-ASCII text. */
    private static List<AddressTransaction> rows(int n) {
        List<AddressTransaction> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = new String(new char[64]).replace('\0', Character.forDigit(i % 16, 16));
            rows.add(new AddressTransaction(null, "1000" + i, "0", null).stxSent("0x" + id.repeat(8) + "\"quoted\u00e9"));
        }
        return rows;
    }
}
