package io.stacksexplorer.write;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The COPY text of the write path's rows; that PostgreSQL reads it back equal is BatchedReplayEquivalencePostgresTest. */
class CopyRowsTest {

    @Test
    void everyPlainInsertOfTheWritePathBecomesACopyOfTheSameColumns() {
        for (WriteStatement insert : new WriteStatement[]{WriteSql.INSERT_TX, WriteSql.INSERT_EVENT,
                WriteSql.INSERT_PRINCIPAL_TX,
                WriteSql.INSERT_NODE_EVENT, WriteSql.INSERT_MEMPOOL_TX_STATE, WriteSql.INSERT_MEMPOOL_PRINCIPAL,
                WriteSql.INSERT_SMART_CONTRACT}) {
            assertNotNull(CopyRows.forInsert(insert.sql()), insert.sql());
        }
        assertEquals("COPY mempool_principals (principal, tx_id, receipt_time) FROM STDIN",
                CopyRows.forInsert(WriteSql.INSERT_MEMPOOL_PRINCIPAL.sql()).copySql());
    }

    @Test
    void insertsWithLiteralsOrQueriesStayInserts() {
        assertNull(CopyRows.forInsert(WriteSql.INSERT_MEMPOOL_TX.sql()), "a literal FALSE among the values");
        assertNull(CopyRows.forInsert(WriteSql.INSERT_NODE_EVENT_IF_NEW.sql()), "INSERT … SELECT");
        assertNull(CopyRows.forInsert(WriteSql.SET_TIP.sql()));
        assertNull(CopyRows.forInsert("INSERT INTO t (a, b) VALUES (?)"), "fewer values than columns");
    }

    @Test
    void valuesAreWrittenInCopyTextFormat() {
        CopyRows rows = CopyRows.forInsert("INSERT INTO t (a, b, c, d, e, f) VALUES (?, ?, ?, ?, ?, ?)");
        rows.add(null, true, false, 42L, new BigInteger("340282366920938463463374607431768211455"), 7);
        rows.add("plain", "tab\there", "line\nbreak\rreturn", "back\\slash", "\\N", "ünïcode €");
        assertEquals("\\N\tt\tf\t42\t340282366920938463463374607431768211455\t7\n"
                + "plain\ttab\\there\tline\\nbreak\\rreturn\tback\\\\slash\t\\\\N\tünïcode €\n", text(rows));
        assertEquals(2, rows.rows());
        rows.clear();
        assertEquals("", text(rows));
        assertEquals(0, rows.rows());
    }

    @Test
    void theInsertOverArraysNamesEachColumnWithItsTypeAndKeepsTheRowOrder() {
        CopyRows rows = CopyRows.forInsert(WriteSql.INSERT_MEMPOOL_PRINCIPAL.sql());
        assertEquals("mempool_principals", rows.table());
        assertEquals(List.of("principal", "tx_id", "receipt_time"), rows.columnNames());
        assertEquals("INSERT INTO mempool_principals (principal, tx_id, receipt_time) SELECT principal, tx_id,"
                + " receipt_time FROM unnest(?::character varying[], ?::character varying[], ?::bigint[])"
                + " WITH ORDINALITY AS rows_in_order (principal, tx_id, receipt_time, place) ORDER BY place",
                rows.arrayInsert(List.of("character varying", "character varying", "bigint")));
        assertThrows(IllegalArgumentException.class, () -> rows.arrayInsert(List.of("bigint")));
    }

    @Test
    void aValueTextIsWhatCopyCarriesBeforeEscapingAndWhatAnArrayElementHolds() {
        assertNull(CopyRows.valueText(null));
        assertEquals("t", CopyRows.valueText(true));
        assertEquals("f", CopyRows.valueText(false));
        assertEquals("340282366920938463463374607431768211455",
                CopyRows.valueText(new BigInteger("340282366920938463463374607431768211455")));
        assertEquals("100", CopyRows.valueText(new java.math.BigDecimal("1E+2")));
        assertEquals("tab\\there\\N", CopyRows.valueText("tab\\there\\N"));
    }

    @Test
    void specialCharactersAtTheEdgesAndInRowsAreEscapedEach() {
        CopyRows rows = CopyRows.forInsert("INSERT INTO t (a, b) VALUES (?, ?)");
        rows.add("\\\t\n\r", "\tmiddle\\");
        assertEquals("\\\\\\t\\n\\r\t\\tmiddle\\\\\n", text(rows));
    }

    @Test
    void largeBatchesAreKeptInChunksThatEndAtRowBoundaries() {
        CopyRows rows = CopyRows.forInsert("INSERT INTO t (a, b) VALUES (?, ?)");
        StringBuilder expected = new StringBuilder();
        String value = "0x" + "ab".repeat(500) + "€";
        for (int i = 0; i < 1_000; i++) {
            rows.add((long) i, value);
            expected.append(i).append('\t').append(value).append('\n');
        }
        List<byte[]> chunks = rows.chunks();
        assertTrue(chunks.size() > 5, "1 MB of rows in chunks of " + CopyRows.CHUNK_CHARS + " characters");
        StringBuilder joined = new StringBuilder();
        for (byte[] chunk : chunks) {
            assertTrue(chunk.length < (512 << 10), "a chunk stays below G1's humongous size at -Xmx512m");
            String text = new String(chunk, StandardCharsets.UTF_8);
            assertTrue(text.endsWith("\n"), "a chunk ends with a whole row");
            joined.append(text);
        }
        assertEquals(expected.toString(), joined.toString());
        assertEquals(expected.toString(), text(rows));
        assertEquals(1_000, rows.rows());
        rows.clear();
        assertTrue(rows.chunks().isEmpty());
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        CopyRows rows = CopyRows.forInsert("INSERT INTO t (a, b) VALUES (?, ?)");
        assertThrows(IllegalArgumentException.class, () -> rows.add("only one"));
    }

    /** All rows as one text: the chunks joined. */
    private static String text(CopyRows rows) {
        StringBuilder all = new StringBuilder();
        for (byte[] chunk : rows.chunks()) {
            all.append(new String(chunk, StandardCharsets.UTF_8));
        }
        return all.toString();
    }
}
