package io.stacksexplorer.ops;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.ingest.EventObserverListener;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * How fast a request fails while PostgreSQL is down, and how fast the server is back after it
 * returns: {@code mvn -pl api-server test -Dtest=DatabaseOutageBenchmark -Dbenchmarks=true -Dpg.tests=true
 * -Dsurefire.failIfNoSpecifiedTests=false}. Prints p50/p95/max of the 503s (API and observer) and
 * the recovery time; README quotes the figures.
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class DatabaseOutageBenchmark {

    @Test
    void failFastAndRecovery() throws Exception {
        assumeTrue(PgCluster.available(), "needs -Dpg.tests=true and the postgresql server binaries");
        try (PgCluster cluster = PgCluster.primary();
             ApplicationContext context = ApplicationContext.run(EmbeddedServer.class,
                     DatabaseOutagePostgresTest.serverProperties(cluster)).getApplicationContext()) {
            String api = context.getBean(EmbeddedServer.class).getURL().toString();
            String observer = "http://127.0.0.1:" + context.getBean(EventObserverListener.class).port();
            ChainWriter writer = context.getBean(ChainWriter.class);
            DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().stream().limit(3).forEach(writer::writeBlock);
            cluster.stop();
            List<Long> apiMillis = new ArrayList<>();
            List<Long> observerMillis = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Http.Answer a = Http.get(api + "/extended/v2/blocks/" + (1 + i % 3));
                assertEquals(503, a.status());
                apiMillis.add(a.millis());
                Http.Answer o = Http.post(observer + "/attachments/new", "[]");
                assertEquals(503, o.status());
                observerMillis.add(o.millis());
            }
            long restarted = System.nanoTime();
            cluster.start();
            long started = (System.nanoTime() - restarted) / 1_000_000;
            Wait.until(() -> Http.get(api + "/extended/v2/blocks/3"), a -> a.status() == 200, 60);
            long back = (System.nanoTime() - restarted) / 1_000_000;
            System.out.printf("%nDatabase outage (40 sequential requests each, PostgreSQL stopped)%n");
            System.out.printf("| answer | p50 ms | p95 ms | max ms |%n|---|---|---|---|%n");
            row("API 503", apiMillis);
            row("observer 503", observerMillis);
            System.out.printf("recovery: pg_ctl start took %d ms; first 200 after %d ms from the start command%n", started, back);
        }
    }

    private static void row(String name, List<Long> millis) {
        List<Long> sorted = new ArrayList<>(millis);
        Collections.sort(sorted);
        System.out.printf("| %s | %d | %d | %d |%n", name, sorted.get(sorted.size() / 2),
                sorted.get((int) Math.ceil(sorted.size() * 0.95) - 1), sorted.get(sorted.size() - 1));
    }
}
