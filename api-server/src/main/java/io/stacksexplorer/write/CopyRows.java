package io.stacksexplorer.write;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rows of one plain {@code INSERT … VALUES (?, …)} collected as the text of PostgreSQL's
 * {@code COPY … FROM STDIN} (text format), to be sent in one stream instead of as bound
 * parameters of multi-row INSERTs.
 *
 * <p>Why: in a replay the batched INSERTs of the four append-only tables (transactions, events,
 * address history, raw payloads) were most of the database's time and a large part of the
 * writer thread's (binding thousands of parameters per statement). COPY has no parameters to bind
 * or statements to parse, and writes a page of heap rows per WAL record. The rows, their order
 * and the database transaction are the same as with the INSERTs; the write path never relied on
 * an INSERT's conflict handling (it checks existence itself), so nothing else changes.
 */
final class CopyRows {

    private static final Pattern PLAIN_INSERT = Pattern.compile(
            "\\s*INSERT INTO (\\w+) \\(([\\w\\s,]+)\\)\\s*VALUES \\(([?,\\s]+)\\)\\s*", Pattern.DOTALL);

    /**
     * Characters after which the rows so far are encoded into a chunk of their own. A batch of a
     * replay queues tens of megabytes of rows per table; held in one builder, every doubling of it
     * copied the whole text, and the builder, its String and its bytes were each a "humongous"
     * object for G1 at {@code -Xmx512m} (over half a 1 MB region), each such allocation starting a
     * concurrent collection cycle (159 in a 200,000-transaction replay). Chunks of 128 K characters
     * stay well below that and are sent one after another.
     */
    static final int CHUNK_CHARS = 1 << 17;

    private final String copySql;
    private final int columns;
    /** {@code INSERT INTO table (columns) VALUES }, for {@link #multiRowInsert}. */
    private final String insertPrefix;
    private final StringBuilder text = new StringBuilder(CHUNK_CHARS + (1 << 12));
    /** Rows encoded before those in {@link #text}, as UTF-8, in order. */
    private final List<byte[]> chunks = new ArrayList<>();
    private int rows;

    private CopyRows(String copySql, int columns, String insertPrefix) {
        this.copySql = copySql;
        this.columns = columns;
        this.insertPrefix = insertPrefix;
    }

    /**
     * The COPY equivalent of {@code insertSql}, or null when it is not a plain INSERT whose values
     * are all placeholders (a literal among the values, a SELECT, ON CONFLICT: those stay INSERTs).
     */
    static CopyRows forInsert(String insertSql) {
        Matcher m = PLAIN_INSERT.matcher(insertSql);
        if (!m.matches()) {
            return null;
        }
        String[] columnNames = m.group(2).split(",");
        long placeholders = m.group(3).chars().filter(c -> c == '?').count();
        if (placeholders != columnNames.length) {
            return null;
        }
        StringBuilder columnList = new StringBuilder();
        for (String name : columnNames) {
            columnList.append(columnList.isEmpty() ? "" : ", ").append(name.trim());
        }
        return new CopyRows("COPY " + m.group(1) + " (" + columnList + ") FROM STDIN", columnNames.length,
                "INSERT INTO " + m.group(1) + " (" + columnList + ") VALUES ");
    }

    /**
     * The same INSERT for {@code rows} rows in one statement ({@code VALUES (?, …), (?, …)}): a few
     * rows go with other statements in one round trip (Statements#sendQueueAndCommit) instead of by
     * COPY, which waits for the server twice.
     */
    String multiRowInsert(int rows) {
        StringBuilder sql = new StringBuilder(insertPrefix.length() + rows * (columns * 3 + 3));
        sql.append(insertPrefix);
        for (int r = 0; r < rows; r++) {
            sql.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < columns; c++) {
                sql.append(c == 0 ? "?" : ", ?");
            }
            sql.append(')');
        }
        return sql.toString();
    }

    /** The statement that reads {@link #chunks()}. */
    String copySql() {
        return copySql;
    }

    int rows() {
        return rows;
    }

    /**
     * The rows so far in COPY's text format (one line per row, tab between columns), as UTF-8
     * chunks in order, to be written to the COPY stream one by one.
     */
    List<byte[]> chunks() {
        List<byte[]> all = new ArrayList<>(chunks);
        if (!text.isEmpty()) {
            all.add(encodedText());
        }
        return all;
    }

    void clear() {
        text.setLength(0);
        chunks.clear();
        rows = 0;
    }

    /** Appends one row; the values as they would have been bound to the INSERT's placeholders. */
    void add(Object... values) {
        if (values.length != columns) {
            throw new IllegalArgumentException("expected " + columns + " values, got " + values.length);
        }
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                text.append('\t');
            }
            append(values[i]);
        }
        text.append('\n');
        rows++;
        if (text.length() >= CHUNK_CHARS) {
            chunks.add(encodedText());
            text.setLength(0);
        }
    }

    private byte[] encodedText() {
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void append(Object value) {
        if (value == null) {
            text.append("\\N");
        } else if (value instanceof Boolean b) {
            text.append(b ? 't' : 'f');
        } else if (value instanceof Integer || value instanceof Long || value instanceof BigInteger) {
            text.append(value);
        } else if (value instanceof BigDecimal d) {
            text.append(d.toPlainString());
        } else {
            escape(value.toString());
        }
    }

    /**
     * COPY text format: backslash, tab, newline and carriage return are escaped; nothing else is
     * special. Most values (hex, JSON payloads) contain none of the four, and are appended whole:
     * appending char by char was over half of the writer thread's samples in a replay.
     */
    private void escape(String s) {
        if (s.indexOf('\\') < 0 && s.indexOf('\t') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            text.append(s);
            return;
        }
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            String escaped = switch (s.charAt(i)) {
                case '\\' -> "\\\\";
                case '\t' -> "\\t";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                default -> null;
            };
            if (escaped != null) {
                text.append(s, from, i).append(escaped);
                from = i + 1;
            }
        }
        text.append(s, from, s.length());
    }
}
