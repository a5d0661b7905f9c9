package io.stacksexplorer.ingest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.function.LongConsumer;

/**
 * Replays a recorded event log (the peer's TSV export: id, received timestamp, path, JSON body per
 * line) through {@link EventIngestor}, in file order, 200 consecutive payloads per
 * database transaction (system property {@code stacks.replay.batch}). Rerunning it is idempotent: payloads stored before are acknowledged and
 * not derived again; a replay killed mid-way lost only its open transaction, which a rerun redoes.
 */
public final class TsvReplay {

    private static final Logger LOG = LoggerFactory.getLogger(TsvReplay.class);

    /** What one replay did. */
    public record Summary(long lines, long rejected, IngestStats derived, double seconds) {

        @Override
        public String toString() {
            return String.format("%d lines: %d blocks, %d transactions, %d events, %d mempool, %d rejected, %.1f s",
                    lines, derived.blocks(), derived.transactions(), derived.events(), derived.mempool(), rejected,
                    seconds);
        }
    }

    /**
     * Payloads (and bytes of them) per database transaction: large enough that commits stop
     * mattering, small enough that a transaction stays a few megabytes.
     */
    static final int BATCH_PAYLOADS = Integer.getInteger("stacks.replay.batch", 200);
    static final long BATCH_BYTES = 8L << 20;

    private TsvReplay() {
    }

    /** Number of lines (deliveries) in a log, for a progress bar. */
    public static long countLines(Path file) throws IOException {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.filter(l -> !l.isBlank()).count();
        }
    }

    /**
     * @param strict   true: a malformed line stops the replay with its exception; false: it is logged,
     *                 counted as rejected and skipped (as the node would have had a 400)
     * @param progress called after each line with the number of lines done
     */
    public static Summary replay(Path file, EventIngestor ingestor, boolean strict, LongConsumer progress)
            throws IOException {
        long started = System.nanoTime();
        IngestStats before = ingestor.stats();
        long lines = 0;
        long rejected = 0;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            long[] counts = {0, 0};
            boolean more = true;
            while (more) {
                // Consecutive payloads in one database transaction (see EventIngestor#inOneTransaction).
                more = ingestor.inOneTransaction(() -> {
                    try {
                        long bytes = 0;
                        for (int n = 0; n < BATCH_PAYLOADS && bytes < BATCH_BYTES; n++) {
                            String line = reader.readLine();
                            if (line == null) {
                                return false;
                            }
                            if (line.isBlank()) {
                                continue;
                            }
                            bytes += line.length();
                            counts[0]++;
                            if (!ingestLine(file, ingestor, strict, line, counts[0])) {
                                counts[1]++;
                            }
                            progress.accept(counts[0]);
                        }
                        return true;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
            lines = counts[0];
            rejected = counts[1];
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new Summary(lines, rejected, ingestor.stats().minus(before), (System.nanoTime() - started) / 1e9);
    }

    /** Ingests one line; false when it was rejected (not strict). */
    private static boolean ingestLine(Path file, EventIngestor ingestor, boolean strict, String line, long number) {
        String[] columns = line.split("\t", 4);
        try {
            if (columns.length != 4) {
                throw new MalformedPayloadException("expected 4 tab-separated columns");
            }
            ingestor.ingest(columns[2], columns[3], epochSeconds(columns[1]));
            return true;
        } catch (MalformedPayloadException e) {
            if (strict) {
                throw new MalformedPayloadException(file.getFileName() + ":" + number + ": " + e.getMessage(), e);
            }
            LOG.warn("{}:{}: rejected: {}", file.getFileName(), number, e.getMessage());
            return false;
        }
    }

    /** The recorded receipt time: {@code 2022-10-05 16:20:34.244945+00} or {@code 2025-10-16T16:10:42.857Z}. */
    static long epochSeconds(String timestamp) {
        String t = timestamp.trim().replace(' ', 'T');
        if (t.matches(".*[+-]\\d\\d$")) {
            t = t + ":00";
        }
        try {
            return OffsetDateTime.parse(t).toEpochSecond();
        } catch (DateTimeParseException e) {
            throw new MalformedPayloadException("unreadable timestamp " + timestamp, e);
        }
    }
}
