package io.stacksexplorer.write;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The binary COPY stream of the write path's rows, read back here field by field; that PostgreSQL
 * reads it back equal is ArrayInsertPostgresTest and BatchedReplayEquivalencePostgresTest.
 */
class CopyRowsTest {

    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};

    @Test
    void everyPlainInsertOfTheWritePathBecomesACopyOfTheSameColumns() {
        for (WriteStatement insert : new WriteStatement[]{WriteSql.INSERT_TX, WriteSql.INSERT_EVENT,
                WriteSql.INSERT_PRINCIPAL_TX,
                WriteSql.INSERT_NODE_EVENT, MempoolWrites.INSERT_MEMPOOL_TX_STATE, MempoolWrites.INSERT_MEMPOOL_PRINCIPAL,
                WriteSql.INSERT_SMART_CONTRACT}) {
            assertNotNull(CopyRows.target(insert.sql()), insert.sql());
        }
        CopyRows.Target target = CopyRows.target(MempoolWrites.INSERT_MEMPOOL_PRINCIPAL.sql());
        assertEquals(new CopyRows.Target("mempool_principals", List.of("principal", "tx_id", "receipt_time")), target);
        assertEquals("COPY mempool_principals (principal, tx_id, receipt_time) FROM STDIN (FORMAT binary)",
                new CopyRows(target, List.of("character varying", "character varying", "bigint")).copySql());
    }

    @Test
    void insertsWithLiteralsOrQueriesStayInserts() {
        assertNull(CopyRows.target(MempoolWrites.INSERT_MEMPOOL_TX.sql()), "a literal FALSE among the values");
        assertNull(CopyRows.target(WriteSql.INSERT_NODE_EVENT_IF_NEW.sql()), "INSERT … SELECT");
        assertNull(CopyRows.target(WriteSql.SET_TIP.sql()));
        assertNull(CopyRows.target("INSERT INTO t (a, b) VALUES (?)"), "fewer values than columns");
    }

    @Test
    void eachValueIsItsLengthAndItsTypesBinaryForm() {
        CopyRows rows = rows(List.of("text", "boolean", "boolean", "bigint", "numeric", "integer", "smallint"));
        rows.add(null, true, false, 42L, new BigInteger("340282366920938463463374607431768211455"), 7, (short) -3);
        rows.add("tab\tand\\N", "t", "false", 7, -5L, -2_147_483_648L, 300);
        ByteBuffer stream = ByteBuffer.wrap(stream(rows));

        byte[] signature = new byte[SIGNATURE.length];
        stream.get(signature);
        assertArrayEquals(SIGNATURE, signature);
        assertEquals(0, stream.getInt(), "flags");
        assertEquals(0, stream.getInt(), "no header extension");

        assertEquals(7, stream.getShort(), "fields of the first row");
        assertEquals(-1, stream.getInt(), "NULL");
        assertEquals(1, stream.getInt());
        assertEquals(1, stream.get());
        assertEquals(1, stream.getInt());
        assertEquals(0, stream.get());
        assertEquals(8, stream.getInt());
        assertEquals(42L, stream.getLong());
        assertEquals(new BigDecimal("340282366920938463463374607431768211455"), numeric(stream));
        assertEquals(4, stream.getInt());
        assertEquals(7, stream.getInt());
        assertEquals(2, stream.getInt());
        assertEquals(-3, stream.getShort());

        assertEquals(7, stream.getShort(), "fields of the second row");
        assertEquals("tab\tand\\N", text(stream), "nothing escaped: a value is its bytes");
        assertEquals(1, stream.getInt());
        assertEquals(1, stream.get(), "a boolean given as text");
        assertEquals(1, stream.getInt());
        assertEquals(0, stream.get());
        assertEquals(8, stream.getInt());
        assertEquals(7L, stream.getLong(), "an int for a bigint column");
        assertEquals(new BigDecimal(-5), numeric(stream), "a long for a numeric column");
        assertEquals(4, stream.getInt());
        assertEquals(Integer.MIN_VALUE, stream.getInt(), "a long for an integer column, in its range");
        assertEquals(2, stream.getInt());
        assertEquals(300, stream.getShort());

        assertEquals(-1, stream.getShort(), "the trailer");
        assertEquals(0, stream.remaining());
        assertEquals(2, rows.rows());
    }

    @Test
    void textIsUtf8AndNumbersForTextColumnsAreTheirText() {
        CopyRows rows = rows(List.of("character varying", "text", "text"));
        rows.add("ünïcode € 𝄞", new BigDecimal("1E+2"), "");
        ByteBuffer stream = ByteBuffer.wrap(stream(rows));
        stream.position(19 + 2);
        assertEquals("ünïcode € 𝄞", text(stream));
        assertEquals("100", text(stream));
        assertEquals("", text(stream));
    }

    @Test
    void aValueItsColumnCannotHoldIsRefusedNamingTheColumn() {
        CopyRows rows = new CopyRows(new CopyRows.Target("t", List.of("small", "big", "flag", "amount")),
                List.of("integer", "bigint", "boolean", "numeric"));
        IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> rows.add(1L << 40, 1L, true, 1L));
        assertTrue(tooBig.getMessage().contains("column small of t (integer)"), tooBig.getMessage());
        assertThrows(IllegalArgumentException.class, () -> rows.add(1, "12x", true, 1L));
        assertThrows(IllegalArgumentException.class, () -> rows.add(1, 1L, "yes", 1L));
        assertThrows(IllegalArgumentException.class, () -> rows.add(1, 1L, true, "one"));
        assertThrows(IllegalArgumentException.class, () -> rows(List.of("timestamp without time zone")),
                "a type without an encoding here is refused when the rows are made, not when sent");
    }

    @Test
    void theInsertOverArraysNamesEachColumnWithItsTypeAndKeepsTheRowOrder() {
        CopyRows rows = new CopyRows(CopyRows.target(MempoolWrites.INSERT_MEMPOOL_PRINCIPAL.sql()),
                List.of("character varying", "character varying", "bigint"));
        assertEquals("mempool_principals", rows.table());
        assertEquals(List.of("principal", "tx_id", "receipt_time"), rows.columnNames());
        assertEquals("INSERT INTO mempool_principals (principal, tx_id, receipt_time) SELECT principal, tx_id,"
                + " receipt_time FROM unnest(?::character varying[], ?::character varying[], ?::bigint[])"
                + " WITH ORDINALITY AS rows_in_order (principal, tx_id, receipt_time, place) ORDER BY place",
                rows.arrayInsert());
        assertThrows(IllegalArgumentException.class,
                () -> new CopyRows(CopyRows.target(MempoolWrites.INSERT_MEMPOOL_PRINCIPAL.sql()), List.of("bigint")));
    }

    @Test
    void aValueTextIsWhatAnArrayElementHolds() {
        assertNull(CopyRows.valueText(null));
        assertEquals("t", CopyRows.valueText(true));
        assertEquals("f", CopyRows.valueText(false));
        assertEquals("340282366920938463463374607431768211455",
                CopyRows.valueText(new BigInteger("340282366920938463463374607431768211455")));
        assertEquals("100", CopyRows.valueText(new BigDecimal("1E+2")));
        assertEquals("tab\\there\\N", CopyRows.valueText("tab\\there\\N"));
    }

    @Test
    void largeBatchesAreKeptInChunksBelowTheHumongousSizeAndValuesMaySpanThem() {
        CopyRows rows = rows(List.of("bigint", "text"));
        String value = "0x" + "ab".repeat(500) + "€";
        for (int i = 0; i < 1_000; i++) {
            rows.add((long) i, value);
        }
        List<byte[]> chunks = rows.chunks();
        assertTrue(chunks.size() > 5, "1 MB of rows in chunks of " + CopyRows.CHUNK_BYTES + " bytes");
        for (byte[] chunk : chunks) {
            assertTrue(chunk.length <= CopyRows.CHUNK_BYTES + 2, "a chunk stays below G1's humongous size at -Xmx512m");
        }
        ByteBuffer stream = ByteBuffer.wrap(stream(rows));
        stream.position(19);
        for (long i = 0; i < 1_000; i++) {
            assertEquals(2, stream.getShort());
            assertEquals(8, stream.getInt());
            assertEquals(i, stream.getLong());
            assertEquals(value, text(stream));
        }
        assertEquals(-1, stream.getShort());
        assertEquals(0, stream.remaining());
        assertEquals(1_000, rows.rows());

        rows.clear();
        assertEquals(0, rows.rows());
        byte[] empty = stream(rows);
        assertEquals(19 + 2, empty.length, "no rows: the header and the trailer, as binary COPY needs them");
        assertArrayEquals(SIGNATURE, Arrays.copyOf(empty, SIGNATURE.length));
    }

    @Test
    void numbersAcrossAChunksEndAreWholeInTheStream() {
        // One text value long enough that the next value's length word, then its bytes, end or
        // start at every offset around the first chunk's end (a number goes straight into the
        // chunk only when it fits; across the end it is split between two chunks).
        int firstValueStart = 19 + 2 + 4;
        for (String type : List.of("smallint", "integer", "bigint", "boolean")) {
            for (int before = 1; before <= 16; before++) {
                int length = CopyRows.CHUNK_BYTES - firstValueStart - before;
                CopyRows rows = rows(List.of("text", type));
                String text = "x".repeat(length);
                Object number = switch (type) {
                    case "smallint" -> (short) -12_345;
                    case "integer" -> -1_234_567_890;
                    case "bigint" -> -1_234_567_890_123_456_789L;
                    default -> true;
                };
                rows.add(text, number);
                ByteBuffer stream = ByteBuffer.wrap(stream(rows));
                stream.position(19);
                assertEquals(2, stream.getShort());
                assertEquals(text, text(stream), type + ", " + before + " bytes before the chunk's end");
                switch (type) {
                    case "smallint" -> {
                        assertEquals(2, stream.getInt());
                        assertEquals((short) -12_345, stream.getShort());
                    }
                    case "integer" -> {
                        assertEquals(4, stream.getInt());
                        assertEquals(-1_234_567_890, stream.getInt());
                    }
                    case "bigint" -> {
                        assertEquals(8, stream.getInt());
                        assertEquals(-1_234_567_890_123_456_789L, stream.getLong());
                    }
                    default -> {
                        assertEquals(1, stream.getInt());
                        assertEquals(1, stream.get());
                    }
                }
                assertEquals(-1, stream.getShort(), type + ", " + before + " bytes before the chunk's end");
                assertEquals(0, stream.remaining());
            }
        }
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        CopyRows rows = rows(List.of("text", "text"));
        assertThrows(IllegalArgumentException.class, () -> rows.add("only one"));
    }

    private static CopyRows rows(List<String> types) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            names.add("c" + i);
        }
        return new CopyRows(new CopyRows.Target("t", names), types);
    }

    /** The whole stream: the chunks joined. */
    private static byte[] stream(CopyRows rows) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] chunk : rows.chunks()) {
            all.writeBytes(chunk);
        }
        return all.toByteArray();
    }

    private static String text(ByteBuffer stream) {
        byte[] bytes = new byte[stream.getInt()];
        stream.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A numeric field in PostgreSQL's binary form: digit count, weight, sign, scale, base-10000 digits. */
    private static BigDecimal numeric(ByteBuffer stream) {
        int length = stream.getInt();
        short digits = stream.getShort();
        short weight = stream.getShort();
        short sign = stream.getShort();
        short scale = stream.getShort();
        assertEquals(8 + 2 * digits, length);
        BigDecimal value = BigDecimal.ZERO;
        for (int i = 0; i < digits; i++) {
            value = value.add(BigDecimal.valueOf(stream.getShort()).scaleByPowerOfTen(4 * (weight - i)));
        }
        value = value.setScale(scale);
        return sign == 0x4000 ? value.negate() : value;
    }
}
