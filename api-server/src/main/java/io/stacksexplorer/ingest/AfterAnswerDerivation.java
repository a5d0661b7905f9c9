package io.stacksexplorer.ingest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The deriving thread of {@code STACKS_OBSERVER_DERIVE=after-answer}: the observer thread stores
 * each payload in a commit of its own and answers 200 ({@link EventIngestor#accept}); this thread
 * derives the stored payloads in arrival order, as many as have arrived meanwhile in one database
 * transaction ({@link EventIngestor#deriveAccepted}), on the other core.
 *
 * <p>Why: a node waits for each answer, so with everything in one commit before the answer, a
 * payload's parsing, its rows, PostgreSQL's work on them and the commit run one after the other on
 * one core at a time. Split, the answer waits only for the payload's own row, and the derived rows
 * of the payloads answered meanwhile go in one transaction, as a replay writes them.
 *
 * <p>Nothing answered is lost: a payload is answered only once stored, and the stored payloads not
 * yet derived (between the 'derived' and 'accepted' cursors, V202) are derived at the next start,
 * before the listener accepts anything (EventObserverListener), when this process stops or dies first.
 *
 * <p>Bounded: payloads waiting here hold at most {@code deriveBacklogBytes} of bodies; beyond it the
 * observer thread waits before answering, so a node can never run ahead of derivation by more.
 */
final class AfterAnswerDerivation {

    private static final Logger LOG = LoggerFactory.getLogger(AfterAnswerDerivation.class);

    /** Payloads per derivation transaction, at most (a replay's, {@link TsvReplay#BATCH_PAYLOADS}, is 800). */
    static final int MAX_PER_TRANSACTION = 256;
    private static final long KIB = 1024;

    private final EventIngestor ingestor;
    /** How long a batch of payloads coming back to back waits for more after its first. */
    private final long lingerNanos;
    private final LinkedBlockingQueue<Delivery> waiting = new LinkedBlockingQueue<>();
    /** Kibibytes of payload bodies that may wait; each delivery holds its size until derived. */
    private final Semaphore room;
    private final int roomKib;
    private final Thread thread;
    private volatile boolean stopping;
    /** Answered and not derived yet: waiting, or in the transaction being written. */
    private final AtomicInteger notDerived = new AtomicInteger();
    /** When the observer thread last handed a payload over (observer thread only). */
    private long lastAddNanos;
    /** Whether the payload handed over last came within the linger of the one before it (a sync), or alone. */
    private volatile boolean lastCameBackToBack;

    /**
     * Starts the deriving thread. What an earlier process answered and did not derive is derived
     * before, by the listener (EventObserverListener), in either mode.
     */
    AfterAnswerDerivation(EventIngestor ingestor, long backlogBytes, long lingerMillis) {
        this.ingestor = ingestor;
        this.lingerNanos = TimeUnit.MILLISECONDS.toNanos(lingerMillis);
        this.roomKib = (int) Math.max(1, Math.min(Integer.MAX_VALUE, backlogBytes / KIB));
        this.room = new Semaphore(roomKib);
        this.thread = new Thread(this::run, "event-derivation");
        thread.setDaemon(false);
        thread.start();
    }

    /**
     * Hands a stored delivery to the deriving thread; waits while the payloads waiting already hold
     * the backlog's bytes.
     */
    void add(Delivery delivery) throws InterruptedException {
        room.acquire(kib(delivery));
        notDerived.incrementAndGet();
        long now = System.nanoTime();
        lastCameBackToBack = lastAddNanos != 0 && now - lastAddNanos < lingerNanos;
        lastAddNanos = now;
        waiting.add(delivery);
    }

    /** Payloads this process answered and has not derived yet (a metric). */
    int notDerived() {
        return notDerived.get();
    }

    private int kib(Delivery delivery) {
        return (int) Math.min(roomKib, delivery.raw().body().length() / KIB + 1);
    }

    private void run() {
        List<Delivery> batch = new ArrayList<>(MAX_PER_TRANSACTION);
        while (true) {
            Delivery first;
            try {
                first = waiting.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (first == null) {
                if (stopping) {
                    return;
                }
                continue;
            }
            batch.add(first);
            if (!gather(batch)) {
                return;
            }
            if (!deriveRetrying(batch)) {
                return;
            }
            int held = 0;
            for (Delivery done : batch) {
                held += kib(done);
            }
            room.release(held);
            notDerived.addAndGet(-batch.size());
            batch.clear();
        }
    }

    /**
     * Takes what waits after the batch's first payload, then, while payloads come back to back (a
     * node syncing), keeps taking what arrives for up to the linger ({@code derive-linger-millis},
     * 20 ms) or until the batch is full: a transaction's fixed costs (its statements per table, the
     * counters, the commit) are shared by more payloads, at the price of reads seeing them that
     * much later. At the chain's tip a payload arrives alone (nothing waits with it, and it came
     * more than the linger after the one before it) and is derived at once: waiting for company
     * would only delay its readers and subscribers. False when interrupted.
     */
    private boolean gather(List<Delivery> batch) {
        waiting.drainTo(batch, MAX_PER_TRANSACTION - batch.size());
        if (batch.size() == 1 && !lastCameBackToBack) {
            return true;
        }
        long until = System.nanoTime() + lingerNanos;
        while (batch.size() < MAX_PER_TRANSACTION && !stopping) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                break;
            }
            Delivery next;
            try {
                next = waiting.poll(left, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            if (next == null) {
                break;
            }
            batch.add(next);
            waiting.drainTo(batch, MAX_PER_TRANSACTION - batch.size());
        }
        return true;
    }

    /**
     * Derives one batch, again after a failure (the database unavailable) with a growing pause, as a
     * node resends a delivery answered 503. False when the process stops first: the batch stays
     * stored and is derived at the next start.
     */
    private boolean deriveRetrying(List<Delivery> batch) {
        long pauseMillis = 200;
        while (true) {
            try {
                ingestor.deriveAccepted(batch);
                return true;
            } catch (RuntimeException e) {
                LOG.error("could not derive {} stored payloads (ids {} to {}); retrying in {} ms", batch.size(),
                        batch.get(0).raw().storedId(), batch.get(batch.size() - 1).raw().storedId(), pauseMillis, e);
            }
            if (stopping) {
                return false;
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            pauseMillis = Math.min(pauseMillis * 2, 10_000);
        }
    }

    /**
     * Stops once the payloads waiting are derived (the listener no longer accepts), or after
     * {@code seconds}: what is left then is derived at the next start.
     */
    void stop(long seconds) throws InterruptedException {
        stopping = true;
        thread.join(TimeUnit.SECONDS.toMillis(seconds));
        if (thread.isAlive()) {
            LOG.warn("{} answered payloads not derived at stop; derived at the next start", waiting.size());
            thread.interrupt();
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
    }
}
