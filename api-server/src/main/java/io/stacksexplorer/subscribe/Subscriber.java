package io.stacksexplorer.subscribe;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One connection's subscriptions (WebSocket or event stream) and its delivery rules:
 * <ul>
 *   <li>each subscription keeps the position of the last notification it delivered, and delivers
 *       only later ones: no duplicates, whichever path (live or catch-up) a notification comes by;</li>
 *   <li>a subscription that resumes from a position first catches up from the database, a page at a
 *       time, and goes live only once it has reached the feed's head, checked under the same lock
 *       as live delivery: nothing between the two is missed;</li>
 *   <li>a connection whose client lets more than the configured number of notifications pile up is
 *       closed as too slow, so a stalled client holds a bounded amount of memory.</li>
 * </ul>
 */
abstract class Subscriber implements ChangeFeed.Listener {

    private static final class Subscription {
        Position cursor;
        boolean live;

        Subscription(Position cursor, boolean live) {
            this.cursor = cursor;
            this.live = live;
        }
    }

    private final ChangeFeed feed;
    private final Executor catchUp;
    private final int maxPending;
    private final Map<Topic, Subscription> subscriptions = new HashMap<>();
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean closed;

    Subscriber(ChangeFeed feed, Executor catchUp, int maxPending) {
        this.feed = feed;
        this.catchUp = catchUp;
        this.maxPending = maxPending;
    }

    /** Writes one notification to the client; completes once the connection took it. */
    protected abstract CompletionStage<?> write(Notification notification);

    /** Closes the connection of a client that does not keep up. */
    protected abstract void closeTooSlow();

    synchronized int size() {
        return subscriptions.size();
    }

    /**
     * Adds a subscription and runs {@code confirm} (the answer to the client) under the delivery lock,
     * so that the confirmation precedes every notification of the subscription. Live from now when
     * {@code after} is null, else from {@code after} on. An existing subscription stays as it is.
     */
    void subscribe(Topic topic, Position after, Runnable confirm) {
        boolean resume;
        synchronized (this) {
            if (subscriptions.containsKey(topic)) {
                confirm.run();
                return;
            }
            resume = after != null;
            feed.watch(topic);
            subscriptions.put(topic, resume ? new Subscription(after, false)
                    : new Subscription(Position.afterAllOf(feed.head()), true));
            confirm.run();
        }
        if (resume) {
            catchUp.execute(() -> catchUp(topic));
        }
    }

    synchronized boolean unsubscribe(Topic topic) {
        if (subscriptions.remove(topic) == null) {
            return false;
        }
        feed.unwatch(topic);
        return true;
    }

    /** Stops counting this connection's subscriptions as watched (once). */
    private synchronized void unwatchAll() {
        subscriptions.keySet().forEach(feed::unwatch);
        subscriptions.clear();
    }

    @Override
    public synchronized void deliver(java.util.List<Notification> batch, Position through) {
        for (Notification n : batch) {
            Subscription s = subscriptions.get(n.topic());
            if (s != null && s.live && n.position().isAfter(s.cursor)) {
                send(n);
                s.cursor = n.position();
            }
        }
    }

    private void catchUp(Topic topic) {
        try {
            while (!closed) {
                long target = feed.head();
                Position cursor;
                synchronized (this) {
                    Subscription s = subscriptions.get(topic);
                    if (s == null) {
                        return;
                    }
                    cursor = s.cursor;
                }
                ChangeFeed.Page page = feed.between(cursor, target, topic);
                synchronized (this) {
                    Subscription s = subscriptions.get(topic);
                    if (s == null) {
                        return;
                    }
                    for (Notification n : page.notifications()) {
                        if (n.topic().equals(topic) && n.position().isAfter(s.cursor)) {
                            send(n);
                            s.cursor = n.position();
                        }
                    }
                    if (page.reached().isAfter(s.cursor)) {
                        s.cursor = page.reached();
                    }
                    if (!Position.afterAllOf(target).isAfter(s.cursor) && feed.head() == target) {
                        s.live = true;
                        return;
                    }
                }
                awaitRoom();
            }
        } catch (RuntimeException e) {
            // The database failed mid-way: the client is told by the closed connection and resumes.
            closeTooSlow();
        }
    }

    /** A catch-up sends no faster than the client reads: it waits while half the allowance is used. */
    private void awaitRoom() {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!closed && pending.get() > maxPending / 2) {
            if (System.nanoTime() > deadline) {
                tooSlow();
                return;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void send(Notification n) {
        if (closed) {
            return;
        }
        if (pending.incrementAndGet() > maxPending) {
            tooSlow();
            return;
        }
        write(n).whenComplete((ok, failed) -> pending.decrementAndGet());
    }

    private void tooSlow() {
        if (!closed) {
            closed = true;
            feed.remove(this);
            unwatchAll();
            closeTooSlow();
        }
    }

    /** The connection closed: no more deliveries. */
    void closed() {
        closed = true;
        feed.remove(this);
        unwatchAll();
    }

    boolean isClosed() {
        return closed;
    }
}
