package io.stacksexplorer.write;

import io.micronaut.context.event.ApplicationEventPublisher;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.transaction.TransactionOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The database transactions of the write path and the state cached across them: each runs on one
 * {@link Statements}, which starts from the committed state this writer caches
 * ({@link CommittedCounters}, {@link PendingMempool}, {@link WrittenKeys}) and hands back what it
 * changed once it committed; a failed commit drops the cache. {@link #inOneTransaction} joins many
 * calls into one transaction (a replay's batch). Also the plain-JDBC transactions that must stay
 * outside that cache ({@link #plainTransaction}), and the planner-statistics schedule the commits
 * drive ({@link StatisticsSchedule}).
 */
final class WriteTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(WriteTransactions.class);

    private final TransactionOperations<Connection> transactions;
    /** The pool itself, for {@link AcceptedPayloads}' one statement in autocommit mode, outside any transaction. */
    private final DataSource pool;
    /** Whether {@link #pool} is PostgreSQL, once a connection has told (see {@link #onPostgres}). */
    private volatile Boolean postgres;
    private final CommittedCounters committedCounters = new CommittedCounters();
    private final PendingMempool pendingMempool = new PendingMempool();
    private final WrittenKeys writtenKeys = new WrittenKeys();
    private final StatisticsSchedule statistics = new StatisticsSchedule();
    /** The scheduled ANALYZE running on a thread of its own, if one is (see {@link #newTransaction}). */
    private final AtomicReference<Thread> analyzing = new AtomicReference<>();
    /** The statements of the transaction {@link #inOneTransaction} holds open on this thread, if any. */
    private final ThreadLocal<Statements> open = new ThreadLocal<>();
    /** Told after every transaction this writer ends ({@link ChainCommitted}). */
    private final ApplicationEventPublisher<ChainCommitted> committed;

    WriteTransactions(TransactionOperations<Connection> transactions, DataSource dataSource,
                      ApplicationEventPublisher<ChainCommitted> committed) {
        this.transactions = transactions;
        this.pool = DelegatingDataSource.unwrapDataSource(dataSource);
        this.committed = committed;
    }

    DataSource pool() {
        return pool;
    }

    WrittenKeys writtenKeys() {
        return writtenKeys;
    }

    /** True when no transaction is open on this thread and the last commit left no payload waiting. */
    boolean knownNoDeferredPayloads() {
        return open.get() == null && Boolean.TRUE.equals(committedCounters.noDeferredPayloads());
    }

    /** Empties every derived table (before a rebuild from the stored payloads), and what was cached of them. */
    void clearDerived() {
        committedCounters.clear();
        statistics.reset();
        inTransaction(sql -> {
            for (WriteStatement statement : WriteSql.CLEAR_DERIVED) {
                sql.update(statement);
            }
            return null;
        });
        // Loaded again, empty, by the next transaction.
        pendingMempool.invalidate();
    }

    @FunctionalInterface
    interface Work<T> {
        T run(Statements sql) throws SQLException;
    }

    /**
     * Runs {@code work}, which may call this writer many times (e.g. a replay's consecutive
     * payloads), as one database transaction: every write inside joins it, and counters are written
     * once at its end. All of it is stored or none of it; since every write is idempotent, a rerun
     * after a crash converges to the same database.
     */
    <T> T inOneTransaction(Supplier<T> work) {
        if (open.get() != null) {
            return work.get();
        }
        return newTransaction(false, sql -> {
            open.set(sql);
            try {
                return work.get();
            } finally {
                open.remove();
            }
        });
    }

    <T> T inTransaction(Work<T> work) {
        Statements joined = open.get();
        if (joined != null) {
            try {
                return work.run(joined);
            } catch (SQLException e) {
                throw new StorageException("write failed: " + e.getMessage(), e);
            }
        }
        try {
            return newTransaction(true, work);
        } catch (RuntimeException e) {
            if (!Statements.isPayloadStoredBefore(e)) {
                throw e;
            }
            // The payload presumed new was stored before (a node delivering again): nothing was
            // written; the checked way acknowledges it without deriving it again.
            return newTransaction(false, work);
        }
    }

    /**
     * One database transaction; what it cached (counters) is kept only once it committed.
     *
     * @param presumeNewPayloads see {@link Statements#presumeNewPayloads}: for one delivery, not for
     *                           {@link #inOneTransaction}'s many (a payload stored before would
     *                           undo all of them)
     */
    private <T> T newTransaction(boolean presumeNewPayloads, Work<T> work) {
        Statements[] used = new Statements[1];
        T result;
        try {
            result = transactions.executeWrite(status -> {
                try (Statements sql = new Statements(status.getConnection(), committedCounters, pendingMempool,
                        writtenKeys)) {
                    used[0] = sql;
                    sql.presumeNewPayloads(presumeNewPayloads);
                    sql.mempool().loadIfWanted();
                    T value = work.run(sql);
                    sql.finish();
                    return value;
                } catch (SQLException e) {
                    throw new StorageException("write failed: " + e.getMessage(), e);
                }
            });
        } catch (RuntimeException e) {
            // Whether a commit that failed took effect is unknown: the cached committed state is
            // read from the database again.
            committedCounters.clear();
            pendingMempool.invalidate();
            committed.publishEvent(ChainCommitted.INSTANCE);
            throw e;
        }
        used[0].afterCommit();
        committed.publishEvent(ChainCommitted.INSTANCE);
        if (open.get() == null && statistics.committed(used[0].rowsWritten()) && onPostgres()) {
            // The tables grew enough that plans made on the old statistics may scan them (StatisticsSchedule).
            analyzeInBackground();
        }
        return result;
    }

    /**
     * Runs the scheduled ANALYZE on a thread and connection of its own, one at a time: it used to
     * run on the writing thread after the commit that made it due, and the next transaction waited
     * for it (six runs, 2.8 s of a 1,000,000-transaction replay whose deriving thread is its critical
     * path; an event observer's next answer waited the same way). The plans it replaces are used a
     * few transactions longer. While one runs, the rows keep counting and the next commit asks again.
     */
    private void analyzeInBackground() {
        if (analyzing.get() != null) {
            return;
        }
        Thread thread = new Thread(() -> {
            try {
                analyze(true);
            } catch (RuntimeException e) {
                // The next refresh comes with the next doubling; a stopped pool at shutdown ends here.
                LOG.warn("planner statistics not refreshed: {}", e.getMessage());
            } finally {
                analyzing.set(null);
            }
        }, "planner-statistics");
        thread.setDaemon(true);
        if (analyzing.compareAndSet(null, thread)) {
            statistics.refreshed();
            thread.start();
        }
    }

    /** Lets a scheduled ANALYZE in flight end before the connection pool closes. */
    void awaitStatistics() throws InterruptedException {
        Thread thread = analyzing.get();
        if (thread != null) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    /**
     * Refreshes the query planner's statistics of the written tables, after a bulk load (replay,
     * rebuild): PostgreSQL plans the first queries after a load of millions of rows from empty-table
     * estimates until autovacuum's next ANALYZE (never, where autovacuum is off). H2 keeps its own
     * statistics up to date as rows change.
     */
    void refreshStatistics() {
        statistics.refreshed();
        analyze(false);
    }

    /**
     * @param quick a sample of 3,000 rows per table instead of 30,000: enough for what the write
     *              path's plans depend on (table sizes, distinct keys), a tenth of the cost (the
     *              five scheduled runs of a 200,000-transaction replay took 5.0 s at full size)
     */
    private void analyze(boolean quick) {
        inTransaction(sql -> {
            if (sql.isPostgres()) {
                if (quick) {
                    sql.update(WriteSql.QUICK_STATISTICS);
                }
                sql.update(WriteSql.ANALYZE_POSTGRESQL);
            }
            return null;
        });
    }

    /** Whether the pool's database is PostgreSQL; asked once (the first connection that answers). */
    boolean onPostgres() {
        Boolean known = postgres;
        if (known == null) {
            try (Connection c = pool.getConnection()) {
                known = isPostgres(c);
            } catch (SQLException e) {
                throw new StorageException("write failed: " + e.getMessage(), e);
            }
            postgres = known;
        }
        return known;
    }

    private static boolean isPostgres(Connection c) throws SQLException {
        return "PostgreSQL".equals(c.getMetaData().getDatabaseProductName());
    }

    /**
     * {@code statement} prepared on {@code c}, its parameters bound as the write path binds them;
     * the keys it writes are noted as {@link Statements} notes them.
     */
    PreparedStatement bound(Connection c, WriteStatement statement, Object... params)
            throws SQLException {
        writtenKeys.noteWrite(statement, params);
        PreparedStatement ps = c.prepareStatement(statement.sql());
        try {
            Statements.bind(ps, params);
            return ps;
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
    }

    @FunctionalInterface
    interface PlainWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /** A transaction of plain JDBC statements, outside this writer's cached state (see {@link AcceptedPayloads#accept}). */
    <T> T plainTransaction(boolean readOnly, PlainWork<T> work) {
        io.micronaut.transaction.TransactionCallback<Connection, T> callback = status -> {
            try {
                return work.run(status.getConnection());
            } catch (SQLException e) {
                throw new StorageException("write failed: " + e.getMessage(), e);
            }
        };
        return readOnly ? transactions.executeRead(callback) : transactions.executeWrite(callback);
    }
}
