package io.stacksexplorer.write;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The COPY text of the write path's rows; that PostgreSQL reads it back equal is BatchedReplayEquivalencePostgresTest. */
class CopyRowsTest {

    @Test
    void everyPlainInsertOfTheWritePathBecomesACopyOfTheSameColumns() {
        for (String insert : new String[]{WriteSql.INSERT_TX, WriteSql.INSERT_EVENT, WriteSql.INSERT_PRINCIPAL_TX,
                WriteSql.INSERT_NODE_EVENT, WriteSql.INSERT_MEMPOOL_TX_STATE, WriteSql.INSERT_MEMPOOL_PRINCIPAL,
                WriteSql.INSERT_SMART_CONTRACT}) {
            assertNotNull(CopyRows.forInsert(insert), insert);
        }
        assertEquals("COPY mempool_principals (principal, tx_id, receipt_time) FROM STDIN",
                CopyRows.forInsert(WriteSql.INSERT_MEMPOOL_PRINCIPAL).copySql());
    }

    @Test
    void insertsWithLiteralsOrQueriesStayInserts() {
        assertNull(CopyRows.forInsert(WriteSql.INSERT_MEMPOOL_TX), "a literal FALSE among the values");
        assertNull(CopyRows.forInsert(WriteSql.INSERT_NODE_EVENT_IF_NEW), "INSERT … SELECT");
        assertNull(CopyRows.forInsert(WriteSql.SET_TIP));
        assertNull(CopyRows.forInsert("INSERT INTO t (a, b) VALUES (?)"), "fewer values than columns");
    }

    @Test
    void valuesAreWrittenInCopyTextFormat() {
        CopyRows rows = CopyRows.forInsert("INSERT INTO t (a, b, c, d, e, f) VALUES (?, ?, ?, ?, ?, ?)");
        rows.add(null, true, false, 42L, new BigInteger("340282366920938463463374607431768211455"), 7);
        rows.add("plain", "tab\there", "line\nbreak\rreturn", "back\\slash", "\\N", "ünïcode €");
        assertEquals("\\N\tt\tf\t42\t340282366920938463463374607431768211455\t7\n"
                + "plain\ttab\\there\tline\\nbreak\\rreturn\tback\\\\slash\t\\\\N\tünïcode €\n", rows.text().toString());
        assertEquals(2, rows.rows());
        rows.clear();
        assertEquals("", rows.text().toString());
        assertEquals(0, rows.rows());
    }

    @Test
    void specialCharactersAtTheEdgesAndInRowsAreEscapedEach() {
        CopyRows rows = CopyRows.forInsert("INSERT INTO t (a, b) VALUES (?, ?)");
        rows.add("\\\t\n\r", "\tmiddle\\");
        assertEquals("\\\\\\t\\n\\r\t\\tmiddle\\\\\n", rows.text().toString());
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        CopyRows rows = CopyRows.forInsert("INSERT INTO t (a, b) VALUES (?, ?)");
        assertThrows(IllegalArgumentException.class, () -> rows.add("only one"));
    }
}
