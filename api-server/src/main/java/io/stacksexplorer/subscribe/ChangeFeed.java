package io.stacksexplorer.subscribe;

import io.micronaut.json.JsonMapper;
import io.stacksexplorer.query.ChangeQueries;
import io.stacksexplorer.web.ChangePayloads;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one reader of the change log on this server. It polls the log by position (not PostgreSQL's
 * LISTEN/NOTIFY, which never reaches a streaming standby): a row is visible exactly when the
 * write that logged it is, on the primary and, once replayed, on a standby, so whatever it announces
 * can already be read from this server. Each new change is rendered once and handed to every
 * connection; connections catching up read older changes through {@link #between}.
 *
 * <p>The poll starts with the first connection, so servers nobody subscribes to never poll.
 */
@Singleton
public class ChangeFeed {

    /** A connection, told about each new batch in order. */
    interface Listener {
        void deliver(List<Notification> batch, Position through);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ChangeFeed.class);
    private static final int PAGE = 500;

    private final ChangeQueries changes;
    private final ChangePayloads payloads;
    private final JsonMapper json;
    private final SubscriptionSettings settings;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService poller;
    /** The last change handed to the listeners. */
    private volatile long head = -1;

    ChangeFeed(ChangeQueries changes, ChangePayloads payloads, JsonMapper json, SubscriptionSettings settings) {
        this.changes = changes;
        this.payloads = payloads;
        this.json = json;
        this.settings = settings;
    }

    /** Adds a listener; its first batch is the first one after {@link #head()} as it returns then. */
    void add(Listener listener) {
        start();
        listeners.add(listener);
    }

    void remove(Listener listener) {
        listeners.remove(listener);
    }

    int connections() {
        return listeners.size();
    }

    /** The last change every listener has been (or is being) handed. */
    long head() {
        start();
        return head;
    }

    private synchronized void start() {
        if (poller != null) {
            return;
        }
        try {
            head = changes.head();
        } catch (RuntimeException e) {
            // Database unreachable or its schema not there yet (a reader started before the writer):
            // the first successful poll starts from the log's end.
            head = -1;
        }
        poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "change-feed");
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(1, settings.getPollInterval().toMillis());
        poller.scheduleWithFixedDelay(this::poll, every, every, TimeUnit.MILLISECONDS);
    }

    private void poll() {
        try {
            if (head < 0) {
                head = changes.head();
                return;
            }
            while (true) {
                List<ChangeQueries.Change> page = changes.after(head, PAGE);
                for (ChangeQueries.Change change : page) {
                    // Moved before rendering: a subscription made from now on starts after this change
                    // (it was not watched when the change was skipped or rendered), and a connection
                    // that finishes catching up meanwhile sees the new head and catches up to it.
                    head = change.position();
                    if (!wanted(change, live)) {
                        continue;
                    }
                    // One change at a time: a block's notification does not wait for its transactions'.
                    List<Notification> batch = render(List.of(change));
                    if (batch.isEmpty()) {
                        continue;
                    }
                    for (Listener listener : listeners) {
                        try {
                            listener.deliver(batch, Position.afterAllOf(change.position()));
                        } catch (RuntimeException e) {
                            LOG.warn("a subscriber failed to take notifications", e);
                        }
                    }
                }
                if (page.size() < PAGE) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            // The database is unreachable or failing: tried again at the next tick from the same head.
            LOG.warn("reading the change log failed: {}", e.getMessage());
        }
    }

    /** A resume from a position whose following changes the writer pruned (retention). */
    static final class Pruned extends RuntimeException {
        final long oldest;

        Pruned(long oldest) {
            super("the change log keeps positions from " + oldest + " on", null, false, false);
            this.oldest = oldest;
        }
    }

    /**
     * Refuses a resume from {@code after} when the log no longer has every change after it: the
     * client must read the current state again and subscribe without a position; never a silent gap.
     */
    void requireResumable(Position after) {
        long oldest = changes.oldest();
        if (oldest > 0 && firstNeeded(after) < oldest) {
            throw new Pruned(oldest);
        }
    }

    /** The first change a resume from {@code after} reads (positions start at 1). */
    private static long firstNeeded(Position after) {
        return Math.max(1, after.index() == Integer.MAX_VALUE ? after.change() + 1 : after.change());
    }

    /** One page of a catch-up: the notifications after a position, and how far they reach. */
    record Page(List<Notification> notifications, Position reached) {
    }

    /**
     * The notifications after {@code after} of one page of changes, none beyond change
     * {@code through}; {@code reached} is after every notification of the last change read.
     */
    Page between(Position after, long through, Topic topic) {
        // A change whose notifications were only partly delivered is read again.
        long from = after.index() == Integer.MAX_VALUE ? after.change() : after.change() - 1;
        if (from >= through) {
            return new Page(List.of(), after);
        }
        List<ChangeQueries.Change> page = new ArrayList<>(changes.after(from, PAGE));
        // Positions have no holes: a first row beyond the next position means the writer pruned the
        // changes in between while this catch-up ran. The connection ends instead of skipping them.
        if (page.isEmpty() || page.get(0).position() > firstNeeded(after)) {
            throw new Pruned(changes.oldest());
        }
        page.removeIf(c -> c.position() > through);
        if (page.isEmpty()) {
            return new Page(List.of(), Position.afterAllOf(through));
        }
        Interest only = new Interest() {
            @Override
            public boolean wants(Topic t) {
                return t.equals(topic);
            }

            @Override
            public boolean anyAddress() {
                return topic.method().equals(ChangePayloads.ADDRESS_TX_UPDATE);
            }
        };
        List<ChangeQueries.Change> wanted = new ArrayList<>();
        for (ChangeQueries.Change c : page) {
            if (wanted(c, only)) {
                wanted.add(c);
            }
        }
        List<Notification> out = new ArrayList<>();
        for (Notification n : render(wanted)) {
            if (n.position().isAfter(after) && n.topic().equals(topic)) {
                out.add(n);
            }
        }
        return new Page(out, Position.afterAllOf(page.get(page.size() - 1).position()));
    }

    /** Which notifications someone waits for: a change nobody could want is not rendered at all. */
    interface Interest {
        boolean wants(Topic topic);

        /** Whether any address is watched (the addresses of a transaction are known only once rendered). */
        boolean anyAddress();
    }

    /** Subscriptions of all connections, counted (a topic may be watched by many). */
    private final Map<Topic, Integer> watched = new ConcurrentHashMap<>();
    private final AtomicInteger watchedAddresses = new AtomicInteger();
    private final Interest live = new Interest() {
        @Override
        public boolean wants(Topic topic) {
            return watched.containsKey(topic);
        }

        @Override
        public boolean anyAddress() {
            return watchedAddresses.get() > 0;
        }
    };

    void watch(Topic topic) {
        watched.merge(topic, 1, Integer::sum);
        if (topic.method().equals(ChangePayloads.ADDRESS_TX_UPDATE)) {
            watchedAddresses.incrementAndGet();
        }
    }

    /** How many subscriptions of all connections watch {@code topic}. */
    int watchers(Topic topic) {
        return watched.getOrDefault(topic, 0);
    }

    void unwatch(Topic topic) {
        watched.computeIfPresent(topic, (t, n) -> n == 1 ? null : n - 1);
        if (topic.method().equals(ChangePayloads.ADDRESS_TX_UPDATE)) {
            watchedAddresses.decrementAndGet();
        }
    }

    /**
     * Whether any notification of {@code change} is wanted. All of a change's notifications are
     * rendered or none, so that their indexes (positions) never depend on who is watching.
     */
    private static boolean wanted(ChangeQueries.Change change, Interest interest) {
        return switch (change.kind()) {
            case "block" -> interest.wants(new Topic(ChangePayloads.BLOCK, null));
            case "mempool" -> interest.wants(new Topic(ChangePayloads.MEMPOOL, null))
                    || interest.wants(new Topic(ChangePayloads.TX_UPDATE, change.txId())) || interest.anyAddress();
            case "tx" -> interest.wants(new Topic(ChangePayloads.TX_UPDATE, change.txId())) || interest.anyAddress();
            case "microblock" -> interest.wants(new Topic(ChangePayloads.MICROBLOCK, null));
            default -> false;
        };
    }

    private List<Notification> render(List<ChangeQueries.Change> page) {
        List<Notification> out = new ArrayList<>();
        for (ChangeQueries.Change change : page) {
            List<ChangePayloads.Payload> rendered = payloads.of(change);
            for (int i = 0; i < rendered.size(); i++) {
                ChangePayloads.Payload p = rendered.get(i);
                out.add(new Notification(new Position(change.position(), i), new Topic(p.method(), p.key()),
                        write(p.params()), change.recordedAt()));
            }
        }
        return out;
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @PreDestroy
    synchronized void stop() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
