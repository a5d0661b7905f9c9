package io.stacksexplorer.demo;

import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import io.stacksexplorer.write.ChainWriter;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills an empty database with the demo chain when the application starts, so that a fresh laptop
 * run has something to browse. Runs before the server accepts requests; a database that already
 * holds a block is left alone, so restarts and real data are never touched.
 */
@Singleton
public class DemoDataLoader implements ApplicationEventListener<StartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(DemoDataLoader.class);

    private final DemoDataSettings settings;
    private final ChainWriter writer;

    public DemoDataLoader(DemoDataSettings settings, ChainWriter writer) {
        this.settings = settings;
        this.writer = writer;
    }

    @Override
    public void onApplicationEvent(StartupEvent event) {
        if (settings.isEnabled()) {
            loadIfEmpty();
        }
    }

    /** Writes the demo chain through the write path unless a block exists; returns what was written. */
    public Optional<DemoChain.Summary> loadIfEmpty() {
        if (writer.hasBlocks()) {
            LOG.info("Demo data: the database already holds blocks, leaving it as it is");
            return Optional.empty();
        }
        long started = System.nanoTime();
        DemoChain chain = DemoChain.generate(settings.getSeed());
        chain.blocks().forEach(writer::writeBlock);
        writer.addMempoolTransactions(chain.mempool());
        DemoChain.Summary summary = chain.summary();
        LOG.info("Demo data (seed {}): wrote {} in {} s", chain.seed(), summary.describe(),
                String.format("%.1f", (System.nanoTime() - started) / 1e9));
        return Optional.of(summary);
    }
}
