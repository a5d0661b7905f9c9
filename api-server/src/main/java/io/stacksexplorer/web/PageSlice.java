package io.stacksexplorer.web;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.JsonMapper;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The rows of one window of positions of a list, rendered once (the JSON of its {@code results}
 * elements, gzip-compressed) with the cursor to the rows after them, and answers spliced from them:
 * the page's own envelope (limit, offset, total, its cursors), rendered by the generated model, around
 * the kept rows ({@link KeptPages}).
 *
 * <p>Why bytes and not the rendered models: a window is the same rows whatever offset asks for it
 * after the list grew, but its models are heavy (an address page's 20 decoded transactions hold 70-80
 * KB of heap against about 8 KB of compressed JSON), and keeping models crowded the whole answers out
 * of the cache's room (issue 48). Compressed rows cost as much room as the compact answer they
 * replace; an answer spliced from them holds only its envelope, and serving it inflates the rows as
 * serving a compact answer inflates the answer. An answer below {@link AnswerCache#COMPACT_FROM} holds
 * its JSON instead, as a small kept answer does: inflating it on every hit cost the first page of
 * contract events (2.7 KB) about 30 % of its idle rate. Rendering, hashing and compressing happen once per
 * window, not once per offset and change.
 *
 * <p>The body is exactly what the serializer writes for the whole model: the envelope is rendered
 * with an empty list, which it writes as {@code "results":[]}, and the rows go between the brackets,
 * as rendered by the same serializer (AnswerInvalidationPostgresTest compares every spliced page with
 * a server that renders whole models).
 */
final class PageSlice {

    private static final byte[] EMPTY_RESULTS = "\"results\":[]".getBytes(StandardCharsets.US_ASCII);

    /** A page model whose body is already rendered from kept rows: {@link HttpCaching} sends those bytes. */
    interface Spliced {
        HttpCaching.Rendered rendered();
    }

    /** A spliced answer's parts: the envelope's JSON before and after the rows, and the rows. */
    record Splice(byte[] prefix, PageSlice rows, byte[] suffix) {

        /** The whole body ({@code length} bytes), inflated anew (a spliced answer holds no JSON of its own). */
        byte[] json(int length) {
            byte[] out = new byte[length];
            System.arraycopy(prefix, 0, out, 0, prefix.length);
            rows.inflate(out, prefix.length);
            System.arraycopy(suffix, 0, out, prefix.length + rows.length, suffix.length);
            return out;
        }

        int heldBytes() {
            return prefix.length + suffix.length + rows.gzipped.length;
        }
    }

    private final byte[] gzipped;
    private final int length;
    private final boolean empty;
    @Nullable
    private final String next;

    private PageSlice(byte[] gzipped, int length, boolean empty, @Nullable String next) {
        this.gzipped = gzipped;
        this.length = length;
        this.empty = empty;
        this.next = next;
    }

    /** Renders a window's rows, as the page model's {@code results} would be. */
    static PageSlice of(JsonMapper json, Compression compression, List<?> rows, @Nullable String next) {
        byte[] array = write(json, rows);
        // Between the brackets: "[" + elements + "]".
        byte[] elements = Arrays.copyOfRange(array, 1, array.length - 1);
        return new PageSlice(compression.gzip(elements), elements.length, rows.isEmpty(), next);
    }

    /** Whether the window has no row. */
    boolean empty() {
        return empty;
    }

    /** The cursor to the rows after this window, as the page's next-cursor property gives it. */
    @Nullable
    String next() {
        return next;
    }

    /** About the bytes this holds. */
    int weight() {
        return gzipped.length + 64 + (next == null ? 0 : next.length());
    }

    /** The answer whose model is {@code envelope} with these rows as its results (its own results empty). */
    HttpCaching.Rendered splice(JsonMapper json, Object envelope) {
        byte[] around = write(json, envelope);
        int at = indexOf(around, EMPTY_RESULTS);
        if (at < 0) {
            throw new IllegalStateException(envelope.getClass().getSimpleName() + " has no empty results to splice into");
        }
        // Up to and with the '[', and from the ']' on.
        int close = at + EMPTY_RESULTS.length - 1;
        Splice splice = new Splice(Arrays.copyOfRange(around, 0, close), this, Arrays.copyOfRange(around, close, around.length));
        byte[] whole = splice.json(around.length + length);
        // A small answer holds its JSON, as the answer cache keeps small answers (served without a copy).
        return whole.length < AnswerCache.COMPACT_FROM ? new HttpCaching.Rendered(whole) : new HttpCaching.Rendered(splice, whole);
    }

    private void inflate(byte[] into, int at) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped), 8192)) {
            if (in.readNBytes(into, at, length) != length || in.read() != -1) {
                throw new IllegalStateException("kept rows inflated to another length than they were kept with");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] write(JsonMapper json, Object value) {
        try {
            return json.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int indexOf(byte[] in, byte[] what) {
        outer:
        for (int i = 0; i + what.length <= in.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
