package io.stacksexplorer.write;

import java.math.BigDecimal;
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
    private final String table;
    private final List<String> columnNames;
    private final int columns;
    private final StringBuilder text = new StringBuilder(CHUNK_CHARS + (1 << 12));
    /** Rows encoded before those in {@link #text}, as UTF-8, in order. */
    private final List<byte[]> chunks = new ArrayList<>();
    private int rows;

    private CopyRows(String table, List<String> columnNames) {
        this.copySql = "COPY " + table + " (" + String.join(", ", columnNames) + ") FROM STDIN";
        this.table = table;
        this.columnNames = List.copyOf(columnNames);
        this.columns = columnNames.size();
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
        List<String> names = new ArrayList<>();
        for (String name : columnNames) {
            names.add(name.trim());
        }
        return new CopyRows(m.group(1), names);
    }

    /** The table the rows go to. */
    String table() {
        return table;
    }

    /** The columns the rows fill, in the order of a row's values. */
    List<String> columnNames() {
        return columnNames;
    }

    /**
     * The same INSERT over one array per column ({@code INSERT … SELECT … FROM unnest(?::bigint[], …)
     * WITH ORDINALITY … ORDER BY} the row's place), for any number of rows: a few rows go with other
     * statements in one round trip (Statements#sendQueueAndCommit) instead of by COPY, which waits
     * for the server twice. {@code columnTypes} are the columns' SQL types, in {@link #columnNames()}
     * order; each parameter is a text array that PostgreSQL converts to the column's type, as it
     * reads COPY's text.
     *
     * <p>Why arrays and not {@code VALUES (?, …), (?, …)}: the text of a multi-row VALUES list
     * changes with its row count, so every delivery's statements were parsed, analysed and planned
     * anew, which was two fifths of the deriving backend's CPU in a profile (docs/performance.md,
     * "Through the event observer"). This text is the same for every batch, so pgjdbc prepares it
     * on the server once per connection and PostgreSQL keeps its plan.
     */
    String arrayInsert(List<String> columnTypes) {
        if (columnTypes.size() != columns) {
            throw new IllegalArgumentException("expected " + columns + " column types, got " + columnTypes.size());
        }
        String names = String.join(", ", columnNames);
        StringBuilder arrays = new StringBuilder();
        for (String type : columnTypes) {
            arrays.append(arrays.isEmpty() ? "" : ", ").append("?::").append(type).append("[]");
        }
        // The row's place orders the insert: identity columns (node_events.id) follow arrival order.
        return "INSERT INTO " + table + " (" + names + ") SELECT " + names + " FROM unnest(" + arrays
                + ") WITH ORDINALITY AS rows_in_order (" + names + ", place) ORDER BY place";
    }

    /**
     * A row's value as text, unescaped, or null: what a COPY line carries before {@link #escape}
     * and what an element of {@link #arrayInsert}'s text arrays holds (the array's own encoding
     * escapes it).
     */
    static String valueText(Object value) {
        if (value == null) {
            return null;
        } else if (value instanceof Boolean b) {
            return b ? "t" : "f";
        } else if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return value.toString();
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
        String valueText = valueText(value);
        if (valueText == null) {
            text.append("\\N");
        } else {
            // Booleans and numbers hold none of the escaped characters: escape appends them whole.
            escape(valueText);
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
