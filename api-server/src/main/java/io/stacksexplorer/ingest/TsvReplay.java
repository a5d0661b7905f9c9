package io.stacksexplorer.ingest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.function.LongConsumer;

/**
 * Replays a recorded event log (the peer's TSV export: id, received timestamp, path, JSON body per
 * line) through {@link EventIngestor}, in file order. Rerunning it is idempotent: payloads stored
 * before are acknowledged and not derived again.
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
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                lines++;
                String[] columns = line.split("\t", 4);
                try {
                    if (columns.length != 4) {
                        throw new MalformedPayloadException("expected 4 tab-separated columns");
                    }
                    ingestor.ingest(columns[2], columns[3], epochSeconds(columns[1]));
                } catch (MalformedPayloadException e) {
                    if (strict) {
                        throw new MalformedPayloadException(file.getFileName() + ":" + lines + ": " + e.getMessage(), e);
                    }
                    rejected++;
                    LOG.warn("{}:{}: rejected: {}", file.getFileName(), lines, e.getMessage());
                }
                progress.accept(lines);
            }
        }
        return new Summary(lines, rejected, ingestor.stats().minus(before), (System.nanoTime() - started) / 1e9);
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
