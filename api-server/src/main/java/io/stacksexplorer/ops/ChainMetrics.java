package io.stacksexplorer.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.scheduling.annotation.Scheduled;
import io.stacksexplorer.ingest.EventIngestor;
import io.stacksexplorer.ingest.EventObserverListener;
import io.stacksexplorer.ingest.IngestStats;
import io.stacksexplorer.query.ChainStateRow;
import io.stacksexplorer.query.StatusQueries;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chain as an operator watches it: tip height, seconds since the tip last moved (on a reader
 * that is the replication lag as the API sees it), blocks and transactions ingested by this
 * process and the current ingest (replay) rate. The tip is sampled every few seconds rather than
 * read on each scrape, so a scrape never waits on the database.
 */
@Singleton
@Requires(property = "stacks.metrics.enabled", value = "true")
class ChainMetrics implements MeterBinder {

    private static final Logger LOG = LoggerFactory.getLogger(ChainMetrics.class);

    // Providers: the registry binds this class while the DataSource (whose pool metrics need the
    // registry) may not exist yet; resolving them lazily breaks that cycle.
    private final BeanProvider<StatusQueries> status;
    private final BeanProvider<EventIngestor> ingestor;
    private final BeanProvider<EventObserverListener> observer;

    private volatile double tipHeight = Double.NaN;
    private volatile long tipChangedAtMillis = System.currentTimeMillis();
    private volatile double blocksPerSecond;
    private volatile double blocksWaitingForParent = Double.NaN;
    private volatile double microblocksWaitingForAnchor = Double.NaN;
    private volatile double heldTransactions = Double.NaN;
    private long sampledBlocks;
    private long sampledAtNanos = System.nanoTime();

    ChainMetrics(BeanProvider<StatusQueries> status, BeanProvider<EventIngestor> ingestor,
                 BeanProvider<EventObserverListener> observer) {
        this.status = status;
        this.ingestor = ingestor;
        this.observer = observer;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("stacks.chain.tip.height", this, m -> m.tipHeight)
                .description("Height of the canonical chain tip in the database").register(registry);
        Gauge.builder("stacks.chain.tip.age", this, m -> (System.currentTimeMillis() - m.tipChangedAtMillis) / 1000.0)
                .baseUnit("seconds")
                .description("Seconds since this process last saw the chain tip move (a new block was ingested or replicated)")
                .register(registry);
        FunctionCounter.builder("stacks.ingest.blocks", ingestor, i -> i.get().stats().blocks())
                .description("New blocks ingested by this process").register(registry);
        FunctionCounter.builder("stacks.ingest.transactions", ingestor, i -> i.get().stats().transactions())
                .description("New transactions ingested by this process").register(registry);
        Gauge.builder("stacks.ingest.blocks.waiting.for.parent", this, m -> m.blocksWaitingForParent)
                .description("Delivered blocks kept but not served because their parent is missing from the"
                        + " database (a gap: see docs/operations.md, Recovering from a gap); 0 when the chain is whole")
                .register(registry);
        Gauge.builder("stacks.ingest.microblocks.waiting.for.anchor", this, m -> m.microblocksWaitingForAnchor)
                .description("Delivered microblock streams kept but not served because the block they build on is"
                        + " missing; normal for a moment, a gap when it stays above 0")
                .register(registry);
        Gauge.builder("stacks.ingest.payloads.not.derived", observer,
                        o -> o.isPresent() ? o.get().payloadsNotDerived() : 0)
                .description("Payloads the event observer answered and has not derived yet"
                        + " (STACKS_OBSERVER_DERIVE=after-answer; always 0 otherwise): how far reads lag the node")
                .register(registry);
        Gauge.builder("stacks.ingest.transactions.held", this, m -> m.heldTransactions)
                .description("Transactions of stored blocks that this build cannot read (a wire feature newer than"
                        + " its decoder): held, not served, until a rebuild with a build that reads them; 0 normally")
                .register(registry);
        FunctionCounter.builder("stacks.ingest.mempool.transactions.unreadable", ingestor,
                        i -> IngestStats.unreadableMempoolTransactions())
                .description("Mempool transactions this process left out of their batch because it cannot read"
                        + " them (the rest of the batch is kept)").register(registry);
        Gauge.builder("stacks.ingest.blocks.per.second", this, m -> m.blocksPerSecond)
                .description("Blocks ingested per second over the last sampling interval (replay rate)")
                .register(registry);
    }

    @Scheduled(fixedDelay = "${stacks.metrics.sample-interval:2s}", initialDelay = "1s")
    void sample() {
        IngestStats stats = ingestor.get().stats();
        long now = System.nanoTime();
        synchronized (this) {
            double seconds = (now - sampledAtNanos) / 1e9;
            blocksPerSecond = seconds > 0 ? (stats.blocks() - sampledBlocks) / seconds : 0;
            sampledBlocks = stats.blocks();
            sampledAtNanos = now;
        }
        try {
            var waiting = status.get().blocksWaitingForParent();
            blocksWaitingForParent = waiting.count();
            microblocksWaitingForAnchor = waiting.microblocksWaitingForAnchor();
            heldTransactions = status.get().heldTransactions().count();
            ChainStateRow tip = status.get().chainState();
            double height = tip == null || tip.blockHeight() == null ? Double.NaN : tip.blockHeight();
            if (Double.compare(height, tipHeight) != 0) {
                tipHeight = height;
                tipChangedAtMillis = System.currentTimeMillis();
            }
        } catch (RuntimeException e) {
            // Database down or schema not there yet: keep the last values; readiness reports it.
            LOG.debug("chain tip sample failed", e);
        }
    }
}
