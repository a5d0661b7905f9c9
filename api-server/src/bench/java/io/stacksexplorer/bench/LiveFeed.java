package io.stacksexplorer.bench;

import io.stacksexplorer.ingest.NodeFeeder;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The rest of a generated log, POSTed to a server's event observer at a chain's pace while reads
 * are measured: as a node delivers (one POST at a time, each answered before the next, one
 * kept-alive connection), on a thread of its own, from where the previous pace stopped. Paces:
 * {@code idle} (nothing), {@code quiet} (a block every 5 s, the payloads between two blocks at once
 * after the first of them), {@code busy} (5 payloads a second, whatever they are).
 */
final class LiveFeed implements AutoCloseable {

    enum Pace { IDLE, QUIET, BUSY }

    /** What one pace delivered; {@code ranOut} when the log ended before the pace did. */
    record Delivered(Pace pace, int payloads, int blocks, double seconds, boolean ranOut) {

        @Override
        public String toString() {
            return String.format("%s: %,d payloads (%,d blocks) in %.0f s, %.2f payloads/s, %.2f blocks/s%s",
                    pace.name().toLowerCase(), payloads, blocks, seconds, payloads / seconds, blocks / seconds,
                    ranOut ? " (the log ran out: raise bench.liveTransactions)" : "");
        }
    }

    private static final long QUIET_BLOCK_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long BUSY_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1) / 5;

    private final List<NodeFeeder.Payload> payloads;
    private final NodeFeeder node;
    private int next;
    private Pace pace = Pace.IDLE;
    private Thread thread;
    private volatile boolean stopping;
    private volatile Exception failure;
    private int delivered;
    private int blocks;
    private long started;

    LiveFeed(String host, int port, List<NodeFeeder.Payload> payloads) {
        this.payloads = payloads;
        this.node = new NodeFeeder(host, port, NodeFeeder.Connections.KEEP_ALIVE);
    }

    /** Payloads of the log not delivered yet. */
    int remaining() {
        return payloads.size() - next;
    }

    void start(Pace pace) {
        this.pace = pace;
        delivered = 0;
        blocks = 0;
        stopping = false;
        started = System.nanoTime();
        if (pace == Pace.IDLE) {
            return;
        }
        thread = new Thread(() -> {
            try {
                if (pace == Pace.BUSY) {
                    busy();
                } else {
                    quiet();
                }
            } catch (Exception e) {
                failure = e;
            }
        }, "live-feed");
        thread.setDaemon(true);
        thread.start();
    }

    Delivered stop() throws Exception {
        stopping = true;
        if (thread != null) {
            thread.join();
            thread = null;
        }
        if (failure != null) {
            throw new IllegalStateException("the live feed failed", failure);
        }
        return new Delivered(pace, delivered, blocks, (System.nanoTime() - started) / 1e9,
                pace != Pace.IDLE && next == payloads.size());
    }

    private void busy() throws Exception {
        long first = System.nanoTime();
        for (long i = 0; !stopping && next < payloads.size(); i++) {
            if (!sleepUntil(first + i * BUSY_INTERVAL_NANOS)) {
                return;
            }
            deliverNext();
        }
    }

    private void quiet() throws Exception {
        long lastBlock = 0;
        while (!stopping && next < payloads.size()) {
            boolean block = payloads.get(next).path().equals("/new_block");
            if (block) {
                if (lastBlock != 0 && !sleepUntil(lastBlock + QUIET_BLOCK_NANOS)) {
                    return;
                }
                lastBlock = System.nanoTime();
            }
            deliverNext();
        }
    }

    /** Sleeps in short steps until {@code nanoTime}; false when asked to stop meanwhile. */
    private boolean sleepUntil(long nanoTime) throws InterruptedException {
        for (long wait = nanoTime - System.nanoTime(); wait > 0; wait = nanoTime - System.nanoTime()) {
            if (stopping) {
                return false;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(50)));
        }
        return !stopping;
    }

    private void deliverNext() throws IOException, InterruptedException {
        NodeFeeder.Payload payload = payloads.get(next);
        int status;
        try {
            status = node.post(payload);
        } catch (IOException e) {
            // The observer closes a connection left idle (between paces); a node then connects again
            // and sends the same payload, which is acknowledged once.
            status = node.post(payload);
        }
        while (status == 503) {
            Thread.sleep(100);
            status = node.post(payload);
        }
        if (status != 200) {
            throw new IOException("payload " + next + " of the live feed (" + payload.path() + ") answered " + status);
        }
        next++;
        delivered++;
        blocks += payload.path().equals("/new_block") ? 1 : 0;
    }

    @Override
    public void close() throws Exception {
        stopping = true;
        if (thread != null) {
            thread.join();
        }
        node.close();
    }
}
