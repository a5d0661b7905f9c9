package io.stacksexplorer.write;

import org.postgresql.util.ByteConverter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rows of one plain {@code INSERT … VALUES (?, …)} collected in PostgreSQL's binary
 * {@code COPY … FROM STDIN} format, to be sent in one stream instead of as bound parameters of
 * multi-row INSERTs.
 *
 * <p>Why COPY: in a replay the batched INSERTs of the append-only tables (transactions, events,
 * address history, raw payloads) were most of the database's time and a large part of the writer
 * thread's (binding thousands of parameters per statement). COPY has no parameters to bind or
 * statements to parse, and writes a page of heap rows per WAL record. The rows, their order and
 * the database transaction are the same as with the INSERTs; the write path never relied on an
 * INSERT's conflict handling (it checks existence itself), so nothing else changes.
 *
 * <p>Why binary: in the text format the server scans every character of every value twice (for
 * the line's end and the column's escapes), and this writer scanned each value for the four
 * characters it escapes; the hex of raw transactions and the JSON of payloads are most of the
 * bytes. In the binary format a value is its length and its bytes. The deriving rows of a
 * 1,000,000-transaction replay, loaded by COPY as text and as binary: {@code txs} 24.2 s → 15.6
 * to 16.8 s, the four big tables together 0.84–0.90 of the time (docs/performance.md, "Binary
 * COPY"). The price is that each value must be encoded as its column's type exactly, so the
 * column types come from the catalog ({@code Statements#copyRows}).
 */
final class CopyRows {

    private static final Pattern PLAIN_INSERT = Pattern.compile(
            "\\s*INSERT INTO (\\w+) \\(([\\w\\s,]+)\\)\\s*VALUES \\(([?,\\s]+)\\)\\s*", Pattern.DOTALL);

    /** The binary COPY stream's signature, flags (none) and header extension length (none). */
    private static final byte[] HEADER = {
        'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0,
    };
    /** The stream's end: a field count of -1. */
    private static final byte[] TRAILER = {(byte) 0xff, (byte) 0xff};

    /**
     * Bytes per chunk of encoded rows. A batch of a replay queues tens of megabytes of rows per
     * table; held in one growing array, every doubling copied it all, and the array was a
     * "humongous" object for G1 at {@code -Xmx512m} (over half a 1 MB region), each such
     * allocation starting a concurrent collection cycle (159 in a 200,000-transaction replay).
     * Chunks of 128 KB stay well below that and are sent one after another.
     */
    static final int CHUNK_BYTES = 1 << 17;

    /** A plain INSERT's table and columns, in the order of a row's values. */
    record Target(String table, List<String> columnNames) {
        Target {
            columnNames = List.copyOf(columnNames);
        }
    }

    /** How a column's values are written: PostgreSQL's binary send format of its type. */
    private enum Encoding {
        INT2, INT4, INT8, BOOL, NUMERIC, TEXT;

        /** The encoding of a type named as {@code format_type(atttypid, NULL)} names it. */
        static Encoding of(String sqlType) {
            return switch (sqlType) {
                case "smallint" -> INT2;
                case "integer" -> INT4;
                case "bigint" -> INT8;
                case "boolean" -> BOOL;
                case "numeric" -> NUMERIC;
                case "text", "character varying", "character" -> TEXT;
                default -> throw new IllegalArgumentException("no binary COPY encoding for column type " + sqlType);
            };
        }
    }

    private final String copySql;
    private final Target target;
    private final List<String> columnTypes;
    private final Encoding[] encodings;
    /** Full chunks, in order; {@link #chunk} is being filled. */
    private final List<byte[]> chunks = new ArrayList<>();
    private byte[] chunk = new byte[CHUNK_BYTES];
    private int used;
    private final byte[] scratch = new byte[8];
    /** Network byte order, as the binary COPY format has every number. */
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private int rows;

    /**
     * Rows for {@code target}; {@code columnTypes} are its columns' SQL types as
     * {@code format_type(atttypid, NULL)} names them, in {@link Target#columnNames()} order.
     */
    CopyRows(Target target, List<String> columnTypes) {
        if (columnTypes.size() != target.columnNames().size()) {
            throw new IllegalArgumentException("expected " + target.columnNames().size() + " column types, got "
                    + columnTypes.size());
        }
        this.target = target;
        this.columnTypes = List.copyOf(columnTypes);
        this.encodings = columnTypes.stream().map(Encoding::of).toArray(Encoding[]::new);
        this.copySql = "COPY " + target.table() + " (" + String.join(", ", target.columnNames())
                + ") FROM STDIN (FORMAT binary)";
        put(HEADER, 0, HEADER.length);
    }

    /**
     * The table and columns of {@code insertSql}, or null when it is not a plain INSERT whose values
     * are all placeholders (a literal among the values, a SELECT, ON CONFLICT: those stay INSERTs).
     */
    static Target target(String insertSql) {
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
        return new Target(m.group(1), names);
    }

    /** The table the rows go to. */
    String table() {
        return target.table();
    }

    /** The columns the rows fill, in the order of a row's values. */
    List<String> columnNames() {
        return target.columnNames();
    }

    /**
     * The same INSERT over one array per column ({@code INSERT … SELECT … FROM unnest(?::bigint[], …)
     * WITH ORDINALITY … ORDER BY} the row's place), for any number of rows: a few rows go with other
     * statements in one round trip (Statements#sendQueueAndCommit) instead of by COPY, which waits
     * for the server twice. Each parameter is a text array ({@link #valueText} per element) that
     * PostgreSQL converts to the column's type.
     *
     * <p>Why arrays and not {@code VALUES (?, …), (?, …)}: the text of a multi-row VALUES list
     * changes with its row count, so every delivery's statements were parsed, analysed and planned
     * anew, which was two fifths of the deriving backend's CPU in a profile (docs/performance.md,
     * "Through the event observer"). This text is the same for every batch, so pgjdbc prepares it
     * on the server once per connection and PostgreSQL keeps its plan.
     */
    String arrayInsert() {
        String names = String.join(", ", target.columnNames());
        StringBuilder arrays = new StringBuilder();
        for (String type : columnTypes) {
            arrays.append(arrays.isEmpty() ? "" : ", ").append("?::").append(type).append("[]");
        }
        // The row's place orders the insert: identity columns (node_events.id) follow arrival order.
        return "INSERT INTO " + target.table() + " (" + names + ") SELECT " + names + " FROM unnest(" + arrays
                + ") WITH ORDINALITY AS rows_in_order (" + names + ", place) ORDER BY place";
    }

    /** A row's value as text, or null: what an element of {@link #arrayInsert}'s text arrays holds. */
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
     * The whole COPY stream so far (header, rows, trailer) in chunks, in order, to be written to
     * the COPY stream one by one. Complete with no rows too: binary COPY needs its header.
     */
    List<byte[]> chunks() {
        List<byte[]> all = new ArrayList<>(chunks.size() + 1);
        all.addAll(chunks);
        byte[] last = Arrays.copyOf(chunk, used + TRAILER.length);
        System.arraycopy(TRAILER, 0, last, used, TRAILER.length);
        all.add(last);
        return all;
    }

    void clear() {
        chunks.clear();
        used = 0;
        rows = 0;
        put(HEADER, 0, HEADER.length);
    }

    /** Appends one row; the values as they would have been bound to the INSERT's placeholders. */
    void add(Object... values) {
        if (values.length != encodings.length) {
            throw new IllegalArgumentException("expected " + encodings.length + " values, got " + values.length);
        }
        putShort(values.length);
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value == null) {
                putInt(-1);
                continue;
            }
            try {
                switch (encodings[i]) {
                    case INT2 -> {
                        long v = longValue(value);
                        if (v != (short) v) {
                            throw new ArithmeticException("out of smallint range");
                        }
                        putInt(2);
                        putShort((int) v);
                    }
                    case INT4 -> {
                        putInt(4);
                        putInt(Math.toIntExact(longValue(value)));
                    }
                    case INT8 -> {
                        putInt(8);
                        putLong(longValue(value));
                    }
                    case BOOL -> {
                        putInt(1);
                        putByte(booleanValue(value) ? 1 : 0);
                    }
                    case NUMERIC -> putValue(ByteConverter.numeric(decimalValue(value)));
                    case TEXT -> putValue(valueText(value).getBytes(StandardCharsets.UTF_8));
                }
            } catch (ArithmeticException | NumberFormatException e) {
                throw new IllegalArgumentException("column " + target.columnNames().get(i) + " of " + target.table()
                        + " (" + columnTypes.get(i) + "): cannot hold " + value, e);
            }
        }
        rows++;
    }

    /** Whether {@code value} is one of Java's integer boxes, whose {@code longValue()} is exact. */
    private static boolean isBoxedInteger(Object value) {
        return value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte;
    }

    private static long longValue(Object value) {
        if (isBoxedInteger(value)) {
            return ((Number) value).longValue();
        }
        return decimalValue(value).longValueExact();
    }

    private static BigDecimal decimalValue(Object value) {
        if (value instanceof BigDecimal d) {
            return d;
        } else if (value instanceof BigInteger i) {
            return new BigDecimal(i);
        } else if (isBoxedInteger(value)) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        return new BigDecimal(valueText(value));
    }

    private static boolean booleanValue(Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        return switch (valueText(value)) {
            case "t", "true" -> true;
            case "f", "false" -> false;
            default -> throw new NumberFormatException("not a boolean");
        };
    }

    private void putByte(int v) {
        if (used == chunk.length) {
            nextChunk();
        }
        chunk[used++] = (byte) v;
    }

    private void putValue(byte[] bytes) {
        putInt(bytes.length);
        put(bytes, 0, bytes.length);
    }

    /*
     * Numbers are written straight into the chunk when they fit in it (nearly always): every value
     * has a length word, and copying four bytes through a scratch array with System.arraycopy was
     * the deriving thread's largest item in a profile (CopyRows.putInt and put: 137 of its 779
     * samples in a 1,000,000-transaction replay). Across a chunk's end they go through the scratch.
     */

    private void putShort(int v) {
        if (chunk.length - used >= 2) {
            SHORT.set(chunk, used, (short) v);
            used += 2;
            return;
        }
        SHORT.set(scratch, 0, (short) v);
        put(scratch, 0, 2);
    }

    private void putInt(int v) {
        if (chunk.length - used >= 4) {
            INT.set(chunk, used, v);
            used += 4;
            return;
        }
        INT.set(scratch, 0, v);
        put(scratch, 0, 4);
    }

    private void putLong(long v) {
        if (chunk.length - used >= 8) {
            LONG.set(chunk, used, v);
            used += 8;
            return;
        }
        LONG.set(scratch, 0, v);
        put(scratch, 0, 8);
    }

    /** Appends bytes, starting a new chunk whenever one is full (a value may span chunks: the stream is one). */
    private void put(byte[] bytes, int from, int length) {
        while (length > 0) {
            if (used == chunk.length) {
                nextChunk();
            }
            int n = Math.min(length, chunk.length - used);
            System.arraycopy(bytes, from, chunk, used, n);
            used += n;
            from += n;
            length -= n;
        }
    }

    private void nextChunk() {
        chunks.add(chunk);
        chunk = new byte[CHUNK_BYTES];
        used = 0;
    }
}
