package io.stacksexplorer.write;

import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Keeps the change log ({@link ChangeLog}) to its retention ({@code stacks.subscriptions.retention},
 * {@code STACKS_SUBSCRIPTIONS_RETENTION}, 7 days by default): every {@code prune-interval} the
 * rows recorded before it are deleted, oldest first, a thousand per transaction, so that a prune
 * never holds locks long nor competes with a block's write for more than a moment. Every server that
 * may write runs it (several doing so delete the same rows); a readonly one never does.
 */
@Singleton
@Requires(property = "datasources.default.read-only", notEquals = "true")
public class ChangeLogRetention {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeLogRetention.class);
    /** Rows per delete. */
    static final int BATCH = 1_000;
    /** Deletes per run at most: a log far behind its retention is caught up over several runs. */
    private static final int MAX_BATCHES = 100;

    private final ChainWriter writer;
    private final Duration retention;

    ChangeLogRetention(ChainWriter writer, @Value("${stacks.subscriptions.retention:7d}") Duration retention) {
        this.writer = writer;
        this.retention = retention;
    }

    @Scheduled(fixedDelay = "${stacks.subscriptions.prune-interval:1m}",
            initialDelay = "${stacks.subscriptions.prune-interval:1m}")
    void scheduled() {
        try {
            prune();
        } catch (RuntimeException e) {
            // The database is unreachable or its schema not there yet: tried again at the next run.
            LOG.warn("pruning the change log failed: {}", e.getMessage());
        }
    }

    /**
     * Deletes what is older than the retention now, up to {@link #MAX_BATCHES} batches.
     *
     * @return the number of rows deleted
     */
    public int prune() {
        long before = System.currentTimeMillis() - retention.toMillis();
        int total = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            int deleted = writer.pruneChangeLog(before, BATCH);
            total += deleted;
            if (deleted < BATCH) {
                break;
            }
        }
        if (total > 0) {
            LOG.info("change log: {} rows older than {} deleted", total, retention);
        }
        return total;
    }
}
