package io.stacksexplorer.web;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.generate.Preset;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.EventIngestor;
import io.stacksexplorer.ingest.TsvReplay;
import io.stacksexplorer.ops.CommitWatch;
import io.stacksexplorer.query.ChangeQueries;
import org.junit.jupiter.api.Assumptions;

import java.util.ArrayList;
import java.util.List;

/**
 * The demo chain's event log, a server on a fresh database that ingests it line by line, and a
 * change-log follower ({@link AnswerInvalidation}) with answers kept of its own, whose thread never
 * starts: a test chooses what one page of the change log holds by what it ingests between two
 * {@link AnswerInvalidation#follow} calls. On H2, and on PostgreSQL when its tests are on (else the
 * test is skipped); closing it drops the database's schema.
 */
final class DemoLogFollower implements AutoCloseable {

    final List<String> log = new ArrayList<>();
    final ApplicationContext context;
    final EventIngestor ingestor;
    final KeptAnswers kept = new KeptAnswers(1 << 20);
    final AnswerInvalidation invalidation;

    DemoLogFollower(TestDatabase database) throws java.io.IOException {
        Assumptions.assumeTrue(database == TestDatabase.H2 || TestDatabase.postgresEnabled(),
                "PostgreSQL tests are off (-Dpg.tests=true)");
        Preset.DEMO.generate(log::add);
        context = ApplicationContext.run(EmbeddedServer.class, database.freshProperties()).getApplicationContext();
        ingestor = context.getBean(EventIngestor.class);
        ChangeQueries changes = context.getBean(ChangeQueries.class);
        invalidation = new AnswerInvalidation(context.getBean(CommitWatch.class), changes, changes, kept);
    }

    /** Ingests the log's lines from {@code from} up to, not including, {@code to}. */
    void ingest(int from, int to) {
        for (int line = from; line < to; line++) {
            ingest(ingestor, log.get(line));
        }
    }

    /** One line of an event log through the observer's ingest, a delivery of its own. */
    static void ingest(EventIngestor ingestor, String line) {
        ingestor.ingestAll(List.of(TsvReplay.delivery(line)), done -> { });
    }

    @Override
    public void close() {
        try {
            TestDatabase.dropSchemaOf(context);
        } finally {
            context.close();
        }
    }
}
