package io.stacksexplorer.ops;

import com.zaxxer.hikari.HikariDataSource;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.write.ChainCommitted;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A number that changes whenever what the database has committed may have changed: the answer
 * cache (web.AnswerCache) serves kept answers only once web.AnswerInvalidation has applied the change
 * log up to the current version, and listeners ({@link #onChange}) wake it when the version moves.
 *
 * <p>Two sources move it:
 * <ul>
 *   <li>this process's own writes: {@link ChainCommitted}, published by the writer right after each
 *       of its transactions and before the event observer answers, so a client that has seen a
 *       delivery's 200 never gets an answer from before it from this server;</li>
 *   <li>every other process's (a writer in another process, or the primary this standby replays):
 *       a thread of its own asks PostgreSQL for its current snapshot ({@code pg_current_snapshot()},
 *       {@link #SNAPSHOT}) every {@code stacks.answer-cache.watch-interval} (50 ms) on a connection of
 *       its own, outside the pool. A snapshot's text (xmin, xmax, the transactions in progress) changes
 *       with every commit of a transaction that wrote anything, in any database of the server, so an
 *       unchanged text means nothing has committed since; a changed one may mean a commit that touched
 *       none of our tables, which costs a cache miss, never a stale answer. It works on a hot standby
 *       too, where it follows the replayed commits.</li>
 * </ul>
 *
 * <p>{@link #UNKNOWN} (no answer is served from the cache) until the first snapshot has been read and
 * whenever the watching connection fails: between polls the thread waits in a read on that
 * connection's socket ({@link PGConnection#getNotifications(int)}), so a server shutting down (it
 * tells every connection first) or a broken connection turns the cache off at once rather than at the
 * next poll, and the API answers 503 during an outage as it would without the cache. H2 has no such
 * marker visible to other connections: on H2 the version is always {@link #UNKNOWN}.
 */
@Singleton
public class CommitWatch implements ApplicationEventListener<ChainCommitted> {

    /** No version: the cache neither serves nor keeps answers. */
    public static final long UNKNOWN = -1;

    /** The snapshot of committed transactions, as text; one row, no table. */
    static final String SNAPSHOT = "SELECT pg_current_snapshot()::text";

    private static final Logger LOG = LoggerFactory.getLogger(CommitWatch.class);
    private static final long RETRY_MILLIS = 500;

    private final AnswerCacheSettings settings;
    private final boolean postgres;
    private final DataSource dataSource;
    private final AtomicLong version = new AtomicLong();
    /** Told after each move of the version (on the moving thread: keep them short). */
    private final List<Runnable> onChange = new CopyOnWriteArrayList<>();
    /** The watching connection has read a snapshot and has not failed since. */
    private volatile boolean watching;
    private volatile boolean started;
    private volatile boolean closed;
    private Thread thread;

    CommitWatch(AnswerCacheSettings settings, DataSource dataSource) {
        this.settings = settings;
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.postgres = pool().getJdbcUrl().startsWith("jdbc:postgresql:");
    }

    private HikariDataSource pool() {
        try {
            return dataSource.unwrap(HikariDataSource.class);
        } catch (SQLException e) {
            throw new IllegalStateException("the data source is not a Hikari pool", e);
        }
    }

    /** Whether answers can be kept at all here: switched on, on PostgreSQL. */
    public boolean applies() {
        return settings.isEnabled() && postgres && !closed;
    }

    /**
     * The current version, or {@link #UNKNOWN}; the first call starts the watching thread where the
     * cache {@link #applies}. Cheap on every request: a volatile read once started, whatever the database.
     */
    public long version() {
        if (!started) {
            start();
        }
        return watching ? version.get() : UNKNOWN;
    }

    /** Runs {@code listener} after every move of the version, on the thread that moved it. */
    public void onChange(Runnable listener) {
        onChange.add(listener);
    }

    @Override
    public void onApplicationEvent(ChainCommitted event) {
        moved();
    }

    private void moved() {
        version.incrementAndGet();
        for (Runnable listener : onChange) {
            listener.run();
        }
    }

    private synchronized void start() {
        if (started) {
            return;
        }
        // Set on H2 or when switched off too, so that version() never takes this lock again there.
        started = true;
        if (applies()) {
            thread = new Thread(this::watch, "commit-watch");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private void watch() {
        String seen = null;
        while (!closed) {
            try (Connection connection = connect();
                 PreparedStatement snapshot = connection.prepareStatement(SNAPSHOT)) {
                PGConnection notices = connection.unwrap(PGConnection.class);
                int waitMillis = (int) Math.max(1, settings.getWatchInterval().toMillis());
                while (!closed) {
                    String now;
                    try (ResultSet rs = snapshot.executeQuery()) {
                        rs.next();
                        now = rs.getString(1);
                    }
                    if (!now.equals(seen)) {
                        seen = now;
                        moved();
                    }
                    watching = true;
                    // Sleeps on the socket: a message from the server (it is shutting down) or a broken
                    // connection ends the wait at once with an exception.
                    notices.getNotifications(waitMillis);
                }
            } catch (SQLException | RuntimeException e) {
                watching = false;
                seen = null;
                if (!closed) {
                    LOG.debug("commit watch: {}; answers are not served from the cache until it reconnects",
                            e.getMessage());
                    pause();
                }
            }
        }
        watching = false;
    }

    /**
     * A connection of its own with the pool's URL and credentials: held for the server's life, it
     * would otherwise take one of the pool's connections from the routes.
     */
    private Connection connect() throws SQLException {
        HikariDataSource pool = pool();
        Properties properties = new Properties();
        properties.putAll(pool.getDataSourceProperties());
        if (pool.getUsername() != null) {
            properties.setProperty("user", pool.getUsername());
        }
        if (pool.getPassword() != null) {
            properties.setProperty("password", pool.getPassword());
        }
        properties.setProperty("ApplicationName", "stacks-explorer commit watch");
        properties.setProperty("connectTimeout", "2");
        Connection connection = DriverManager.getConnection(pool.getJdbcUrl(), properties);
        connection.setAutoCommit(true);
        return connection;
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    @PreDestroy
    void close() throws InterruptedException {
        closed = true;
        watching = false;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            t.join(2_000);
        }
    }
}
