package io.stacksexplorer.ingest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.time.format.DateTimeParseException;
import java.util.function.LongConsumer;

/**
 * Replays a recorded event log (the peer's TSV export: id, received timestamp, path, JSON body per
 * line) through {@link EventIngestor}, in file order, 800 consecutive payloads per batch
 * ({@link #BATCH_PAYLOADS}, system property {@code stacks.replay.batch}). Three threads work on
 * consecutive batches at once: one reads, parses and checks the lines; the caller's stores a
 * batch's payloads in one commit ({@link EventIngestor#acceptAll}); a third derives the batch
 * stored before it, its rows in one database transaction ({@link EventIngestor#deriveAccepted}), on
 * a second database connection. The raw payloads are about a fifth of PostgreSQL's work in a
 * replay; stored beside the derivation they no longer lengthen it. On PostgreSQL only (see
 * {@link EventIngestor#storesAheadOfDerivation}); on H2, and with
 * {@code -Dstacks.replay.storeAhead=false}, payloads and rows are one transaction per batch on one
 * connection.
 *
 * <p>Rerunning it is idempotent: payloads stored before are acknowledged and not derived again. A
 * replay killed mid-way leaves payloads stored and not yet derived (between the derive cursors,
 * V202); the next replay or server start derives them first, before anything else.
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
     * Payloads (and bytes of them) per database transaction: large enough that a batch's fixed
     * costs (its commit, look-ups, counter upserts and change-log append, one round trip each) stop
     * mattering, small enough that a transaction stays a few megabytes. 800: a Nakamoto block comes
     * with about four payloads (mempool deliveries, the burn block), so 200 had become about fifty
     * small blocks per transaction; with 800 the 1,000,000-transaction mixed replay on PostgreSQL
     * took 0.91-0.96 of the time in three alternated pairs (1,600: slower again;
     * docs/performance.md). A 2.x log's larger payloads meet the byte limit first.
     */
    static final int BATCH_PAYLOADS = Integer.getInteger("stacks.replay.batch", 800);
    static final long BATCH_BYTES = 8L << 20;
    /** Whether payloads are stored a batch ahead of their derivation (see the class comment). */
    static final boolean STORE_AHEAD = Boolean.parseBoolean(System.getProperty("stacks.replay.storeAhead", "true"));

    private TsvReplay() {
    }

    /**
     * @param strict   true: a malformed line stops the replay with its exception (the lines before it
     *                 are stored); false: it is logged, counted as rejected and skipped (as the node
     *                 would have had a 400)
     * @param progress called after each line with the characters of the log done so far, line ends
     *                 included: for a progress bar over the file's size, which needs no pass over
     *                 the file before the replay (counting the lines of a 2.6 GB log took seconds)
     */
    public static Summary replay(Path file, EventIngestor ingestor, boolean strict, LongConsumer progress)
            throws IOException {
        return replay(file.getFileName().toString(), each -> {
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                String line;
                while ((line = reader.readLine()) != null) {
                    each.accept(line);
                }
            }
        }, ingestor, strict, progress);
    }

    /**
     * Where a log's lines come from: a file, or a generator writing them as it goes (the demo
     * preset is ingested without a file). Called once, on the reading thread.
     */
    @FunctionalInterface
    public interface LineSource {
        void lines(java.util.function.Consumer<String> each) throws IOException;
    }

    /** As {@link #replay(Path, EventIngestor, boolean, LongConsumer)}, from any source of lines. */
    public static Summary replay(String name, LineSource source, EventIngestor ingestor, boolean strict,
                                 LongConsumer progress) throws IOException {
        long started = System.nanoTime();
        IngestStats before = ingestor.stats();
        long[] lines = {0};
        long[] characters = {0};
        long rejected = 0;
        // Reading, parsing and checking run one batch ahead on a thread of their own, so that the
        // writer's thread only writes (and waits for the database) while the next lines are prepared.
        boolean storeAhead = STORE_AHEAD && ingestor.storesAheadOfDerivation();
        try (LinePreparer preparer = LinePreparer.start(source); Deriving deriving = new Deriving(ingestor)) {
            List<PreparedLine> batch;
            while (!(batch = preparer.nextBatch(BATCH_PAYLOADS, BATCH_BYTES)).isEmpty()) {
                List<PreparedLine> delivered = new ArrayList<>(batch.size());
                MalformedPayloadException stop = null;
                for (PreparedLine line : batch) {
                    if (line.malformed() == null) {
                        delivered.add(line);
                    } else if (strict) {
                        stop = new MalformedPayloadException(
                                name + ":" + line.number() + ": " + line.malformed().getMessage(),
                                line.malformed());
                        break;
                    } else {
                        LOG.warn("{}:{}: rejected: {}", name, line.number(),
                                line.malformed().getMessage());
                        rejected++;
                        lines[0]++;
                        progress.accept(characters[0] += line.bytes() + 1);
                    }
                }
                List<Delivery> deliveries = delivered.stream().map(PreparedLine::delivery).toList();
                // Counted on this thread once derived (or acknowledged), so that the line count and
                // the progress move forward in order.
                Runnable done = () -> {
                    for (PreparedLine line : delivered) {
                        lines[0]++;
                        progress.accept(characters[0] += line.bytes() + 1);
                    }
                };
                if (storeAhead) {
                    // Committed before its derivation starts; derived while the next batch is stored.
                    deriving.submit(ingestor.acceptAll(deliveries), done);
                } else {
                    // Payloads and rows in one database transaction (see EventIngestor#ingestAll).
                    ingestor.ingestAll(deliveries, delivery -> {
                    });
                    done.run();
                }
                if (stop != null) {
                    deriving.awaitInFlight();
                    throw stop;
                }
            }
            deriving.awaitInFlight();
        }
        return new Summary(lines[0], rejected, ingestor.stats().minus(before), (System.nanoTime() - started) / 1e9);
    }

    /**
     * The deriving thread: one stored batch derived at a time, while the caller stores the next; a
     * failure comes back to the caller at its next {@link #submit} or {@link #awaitInFlight}.
     */
    static final class Deriving implements AutoCloseable {

        private final EventIngestor ingestor;
        private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "replay-derive");
            t.setDaemon(true);
            return t;
        });
        private Future<?> inFlight;
        private Runnable whenDerived;

        Deriving(EventIngestor ingestor) {
            this.ingestor = ingestor;
        }

        /** Waits for the batch in flight, then hands {@code stored} to the deriving thread. */
        void submit(List<Delivery> stored, Runnable whenDone) throws IOException {
            awaitInFlight();
            inFlight = thread.submit(() -> ingestor.deriveAccepted(stored));
            whenDerived = whenDone;
        }

        /** Waits until the batch in flight is derived (and runs its completion); rethrows its failure. */
        void awaitInFlight() throws IOException {
            if (inFlight == null) {
                return;
            }
            try {
                inFlight.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("replay interrupted");
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException failure) {
                    throw failure;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException(e.getCause());
            } finally {
                inFlight = null;
            }
            whenDerived.run();
        }

        /**
         * Lets a derivation in flight finish (its transaction is not cut short by an interrupt) and
         * ends the thread; what it has not derived is derived at the next start.
         */
        @Override
        public void close() {
            thread.shutdown();
            try {
                thread.awaitTermination(1, TimeUnit.HOURS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * One line of a log (id, received timestamp, path, JSON body), parsed and checked as a replay
     * would deliver it.
     *
     * @throws MalformedPayloadException when the line cannot be understood
     */
    public static Delivery delivery(String line) {
        String[] columns = line.split("\t", 4);
        if (columns.length != 4) {
            throw new MalformedPayloadException("expected 4 tab-separated columns");
        }
        return Delivery.prepare(columns[2], columns[3], epochSeconds(columns[1]));
    }

    /** One line of the log, read and prepared: a delivery, or why it cannot be one. */
    record PreparedLine(long number, Delivery delivery, MalformedPayloadException malformed,
                        long bytes) {

        static PreparedLine of(long number, String line) {
            try {
                return new PreparedLine(number, TsvReplay.delivery(line), null, line.length());
            } catch (MalformedPayloadException e) {
                return new PreparedLine(number, null, e, line.length());
            }
        }
    }

    /** Reads and prepares the log's lines on a thread of its own, a bounded number ahead. */
    static final class LinePreparer implements AutoCloseable {

        /** Lines prepared ahead of the writer (memory stays flat: a few batches of payloads). */
        private static final int AHEAD = 2 * BATCH_PAYLOADS;
        private static final Object END = new Object();

        private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(AHEAD);
        private final Thread thread;
        private boolean ended;

        private LinePreparer(LineSource source) {
            thread = new Thread(() -> run(source), "replay-reader");
            thread.setDaemon(true);
        }

        static LinePreparer start(LineSource source) {
            LinePreparer preparer = new LinePreparer(source);
            preparer.thread.start();
            return preparer;
        }

        /** Thrown through the source when the replay was closed early. */
        private static final class Closed extends RuntimeException {
            Closed() {
                super(null, null, false, false);
            }
        }

        private void run(LineSource source) {
            try {
                long[] number = {0};
                source.lines(line -> {
                    if (!line.isBlank()) {
                        try {
                            queue.put(PreparedLine.of(++number[0], line));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new Closed();
                        }
                    }
                });
                queue.put(END);
            } catch (Closed e) {
                // closed early: stop reading
            } catch (IOException | RuntimeException e) {
                try {
                    queue.put(e);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            } catch (InterruptedException e) {
                // closed early: stop reading
                Thread.currentThread().interrupt();
            }
        }

        /** The next lines, up to {@code max} of them or about {@code maxBytes}; empty at the end of the log. */
        List<PreparedLine> nextBatch(int max, long maxBytes) throws IOException {
            List<PreparedLine> batch = new ArrayList<>();
            long bytes = 0;
            while (!ended && batch.size() < max && bytes < maxBytes) {
                Object next;
                try {
                    next = queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("replay interrupted");
                }
                if (next == END) {
                    ended = true;
                } else if (next instanceof IOException e) {
                    throw e;
                } else if (next instanceof RuntimeException e) {
                    throw e;
                } else {
                    PreparedLine line = (PreparedLine) next;
                    batch.add(line);
                    bytes += line.bytes();
                }
            }
            return batch;
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }

    private static final Pattern SHORT_OFFSET = Pattern.compile("[+-]\\d\\d$");

    /**
     * The recorded receipt time ({@code 2022-10-05 16:20:34.244945+00} or {@code 2025-10-16T16:10:42.857Z})
     * to the nearest second, as the live observer and the peer take it.
     */
    static long epochSeconds(String timestamp) {
        String t = timestamp.trim().replace(' ', 'T');
        if (SHORT_OFFSET.matcher(t).find()) {
            t = t + ":00";
        }
        try {
            OffsetDateTime at = OffsetDateTime.parse(t);
            return at.toEpochSecond() + (at.getNano() >= 500_000_000 ? 1 : 0);
        } catch (DateTimeParseException e) {
            throw new MalformedPayloadException("unreadable timestamp " + timestamp, e);
        }
    }
}
