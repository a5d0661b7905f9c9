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
 * returns: {@code mvn -B -o verify -pl spec,api-server -Pbenchmarks -Dbenchmark=DatabaseOutageBenchmark
 * -Dpg.tests=true} (docs/benchmarks.md). Prints the first request of a fresh server while the
 * database is down, then, for a warm server, p50/p95/max of the 503s (API and observer, each
 * request in order) and the recovery time; docs/performance.md quotes the figures.
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class DatabaseOutageBenchmark {

    @Test
    void failFastAndRecovery() throws Exception {
        assumeTrue(PgCluster.available(), "needs -Dpg.tests=true and the postgresql server binaries");
        try (PgCluster cluster = PgCluster.primary()) {
            coldFirstRequests(cluster);
            outage(cluster);
        }
    }

    /**
     * The first request a freshly started server answers pays for the JVM's first use of the
     * request path (class loading, bean creation, JIT compilation). Timed here on a server that has
     * never answered, with the database already down, and apart from the outage figures below,
     * which a server in service (warm) shows.
     */
    private static void coldFirstRequests(PgCluster cluster) throws Exception {
        try (ApplicationContext context = ApplicationContext.run(EmbeddedServer.class,
                DatabaseOutagePostgresTest.serverProperties(cluster)).getApplicationContext()) {
            String api = context.getBean(EmbeddedServer.class).getURL().toString();
            cluster.stop();
            Http.Answer first = Http.get(api + "/extended/v2/blocks/1");
            Http.Answer second = Http.get(api + "/extended/v2/blocks/2");
            assertEquals(503, first.status());
            assertEquals(503, second.status());
            System.out.printf("%nA fresh server's first two requests, database down: %d ms, %d ms (503)%n",
                    first.millis(), second.millis());
            cluster.start();
        }
    }

    private static void outage(PgCluster cluster) throws Exception {
        try (ApplicationContext context = ApplicationContext.run(EmbeddedServer.class,
                     DatabaseOutagePostgresTest.serverProperties(cluster)).getApplicationContext()) {
            String api = context.getBean(EmbeddedServer.class).getURL().toString();
            String observer = "http://127.0.0.1:" + context.getBean(EventObserverListener.class).port();
            ChainWriter writer = context.getBean(ChainWriter.class);
            DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().stream().limit(3).forEach(writer::writeBlock);
            // A server in service has answered before its database goes away: warm the routes so the
            // figures measure the outage, not the JVM's first use of a code path.
            for (int i = 0; i < 20; i++) {
                assertEquals(200, Http.get(api + "/extended/v2/blocks/" + (1 + i % 3)).status());
                assertEquals(200, Http.post(observer + "/attachments/new", "[]").status());
            }
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
            System.out.printf("%nDatabase outage under a warm server (40 sequential requests each, PostgreSQL stopped)%n");
            System.out.printf("| answer | p50 ms | p95 ms | max ms |%n|---|---|---|---|%n");
            row("API 503", apiMillis);
            row("observer 503", observerMillis);
            System.out.printf("first request after the stop: API %d ms, observer %d ms%nAPI, in order: %s%nobserver, in order: %s%n",
                    apiMillis.get(0), observerMillis.get(0), apiMillis, observerMillis);
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
