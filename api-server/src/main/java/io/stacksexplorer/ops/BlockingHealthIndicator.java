package io.stacksexplorer.ops;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import org.reactivestreams.Publisher;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/** A health check that uses JDBC, which blocks: it runs on the blocking pool, off the event loop. */
abstract class BlockingHealthIndicator implements HealthIndicator {

    private final ExecutorService blocking;

    BlockingHealthIndicator(ExecutorService blocking) {
        this.blocking = blocking;
    }

    @Override
    public final Publisher<HealthResult> getResult() {
        return Publishers.fromCompletableFuture(() -> CompletableFuture.supplyAsync(this::check, blocking));
    }

    /** The check itself, on a blocking-pool thread. */
    abstract HealthResult check();
}
