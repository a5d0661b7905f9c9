package io.stacksexplorer.demo;

import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import io.stacksexplorer.generate.GeneratorSummary;
import io.stacksexplorer.generate.Preset;
import io.stacksexplorer.ingest.EventIngestor;
import io.stacksexplorer.ingest.TsvReplay;
import io.stacksexplorer.write.ChainWriter;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills an empty database with the {@link Preset#DEMO demo preset} when the application starts, so
 * that a fresh laptop run has something to browse. The generator's log goes through
 * {@link EventIngestor} line by line, as a replay of a recorded log would (no file in between), so
 * the default start-up takes the same route as real data. Runs before the server accepts requests;
 * a database that already holds a block is left alone, so restarts and real data are never touched.
 */
@Singleton
public class DemoDataLoader implements ApplicationEventListener<StartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(DemoDataLoader.class);

    private final DemoDataSettings settings;
    private final ChainWriter writer;
    private final EventIngestor ingestor;

    public DemoDataLoader(DemoDataSettings settings, ChainWriter writer, EventIngestor ingestor) {
        this.settings = settings;
        this.writer = writer;
        this.ingestor = ingestor;
    }

    @Override
    public void onApplicationEvent(StartupEvent event) {
        if (settings.isEnabled()) {
            loadIfEmpty();
        }
    }

    /** Ingests the demo preset's log unless a block exists; returns the generator's summary of it. */
    public Optional<GeneratorSummary> loadIfEmpty() {
        if (writer.hasBlocks()) {
            LOG.info("Demo data: the database already holds blocks, leaving it as it is");
            return Optional.empty();
        }
        Preset preset = Preset.DEMO.withSeed(settings.getSeed());
        GeneratorSummary[] generated = new GeneratorSummary[1];
        TsvReplay.Summary ingested;
        try {
            ingested = TsvReplay.replay("demo preset", each -> generated[0] = preset.generate(each), ingestor,
                    true, done -> {
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LOG.info("Demo data (preset {}, seed {}): ingested {}", preset.name(), preset.seed(), ingested);
        return Optional.of(generated[0]);
    }
}
