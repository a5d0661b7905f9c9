package io.stacksexplorer.ingest;

import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Replay throughput, run on purpose only:
 * {@code mvn -B -o verify -pl spec,api-server -Pbenchmarks -Dbenchmark=ReplayBenchmark [-Dpg.tests=true]}.
 * Replays every recorded log into a fresh database per round (3 rounds after one warm-up) and
 * reports blocks/s and transactions/s for H2, and for PostgreSQL when enabled.
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class ReplayBenchmark {

    @Test
    void replayThroughput() throws Exception {
        Path folder = NodeEventsIngestContract.eventsFolder();
        List<Path> logs = RecordedLog.all(folder);
        List<TestDatabase> databases = new ArrayList<>(List.of(TestDatabase.H2));
        if (IngestServer.postgresEnabled()) {
            databases.add(TestDatabase.POSTGRES);
        }
        for (TestDatabase database : databases) {
            long blocks = 0;
            long txs = 0;
            long lines = 0;
            double seconds = 0;
            for (int round = 0; round < 4; round++) {
                for (Path log : logs) {
                    try (IngestServer server = IngestServer.start(database, new RecordedLog(log).chainId())) {
                        TsvReplay.Summary s = TsvReplay.replay(log, server.ingestor(), true, n -> { });
                        if (round > 0) {
                            blocks += s.derived().blocks();
                            txs += s.derived().transactions();
                            lines += s.lines();
                            seconds += s.seconds();
                        }
                    }
                }
            }
            System.out.printf("replay benchmark [%s]: %d deliveries, %d blocks, %d transactions in %.2f s:"
                            + " %.0f blocks/s, %.0f transactions/s, %.0f deliveries/s%n", database, lines, blocks, txs,
                    seconds, blocks / seconds, txs / seconds, lines / seconds);
        }
    }
}
