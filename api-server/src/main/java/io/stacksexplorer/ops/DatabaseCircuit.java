package io.stacksexplorer.ops;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.TaskScheduler;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the database is known to be unreachable. The cheap routes run on Netty's event-loop threads
 * (two on a two-core machine); once a request has found the database unreachable, {@link SchemaGate}
 * answers every API request 503 at once instead of letting each wait the pool's 500 ms on an event
 * loop, which would serialize them. Meanwhile one probe on the scheduler thread asks the pool for a
 * connection every {@link #PROBE_INTERVAL}; the first that succeeds closes the circuit.
 */
@Singleton
public class DatabaseCircuit {

    static final Duration PROBE_INTERVAL = Duration.ofMillis(500);

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseCircuit.class);

    private final DataSource dataSource;
    private final TaskScheduler scheduler;
    private final AtomicBoolean down = new AtomicBoolean();

    DatabaseCircuit(DataSource dataSource, @Named(TaskExecutors.SCHEDULED) TaskScheduler scheduler) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.scheduler = scheduler;
    }

    /** True from a request's failure to reach the database until a probe reaches it again. */
    public boolean knownDown() {
        return down.get();
    }

    /** A request could not reach the database (no connection within the pool's timeout, or a broken one). */
    public void unreachable() {
        if (down.compareAndSet(false, true)) {
            LOG.warn("database unreachable: answering 503 without waiting until it answers again");
            scheduler.schedule(PROBE_INTERVAL, this::probe);
        }
    }

    private void probe() {
        try (Connection connection = dataSource.getConnection()) {
            if (connection.isValid(1)) {
                down.set(false);
                LOG.info("database reachable again: serving");
                return;
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("database still unreachable: {}", e.getMessage());
        }
        scheduler.schedule(PROBE_INTERVAL, this::probe);
    }
}
