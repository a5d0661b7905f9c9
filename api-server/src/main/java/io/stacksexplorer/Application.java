package io.stacksexplorer;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.ingest.EventIngestor;
import io.stacksexplorer.ingest.TsvReplay;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the API server on the database chosen by the environment (see {@link StorageSettings}),
 * or runs one of the maintenance commands: {@code replay FILE.tsv}, {@code rebuild}.
 *
 * <p>{@code STACKS_API_MODE}, as the peer's: {@code readonly} serves the API only (no event
 * observer), {@code writeonly} runs the event observer only (no public API), anything else both.
 */
@Command(name = "api-server", mixinStandardHelpOptions = true,
        description = "Stacks explorer API; with no command it starts the server.",
        subcommands = {Application.Replay.class, Application.Rebuild.class,
                io.stacksexplorer.generate.GenerateCommand.class})
public final class Application implements Callable<Integer> {

    /** Micronaut's own command-line properties (e.g. {@code -micronaut.server.port=8080}) pass through. */
    @Unmatched
    List<String> serverArgs = new ArrayList<>();

    public static void main(String[] args) {
        int code = new CommandLine(new Application()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        Map<String, String> env = System.getenv();
        Map<String, Object> props = startupProperties(env);
        String[] args = serverArgs.toArray(String[]::new);
        if ("writeonly".equals(apiMode(env))) {
            // No public API server: only the context (database, write path, event observer).
            ApplicationContext context = ApplicationContext.builder(Application.class).args(args)
                    .properties(props).start();
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                context.close();
                stopped.countDown();
            }));
            stopped.await();
            return 0;
        }
        Micronaut.build(args).mainClass(Application.class).properties(props).start();
        return 0;
    }

    /**
     * Storage from the environment; the demo chain (mainnet, generated) only ever goes into the
     * embedded database of a mainnet server, never into an operator's PostgreSQL. The event
     * observer listens unless {@code STACKS_API_MODE=readonly}.
     */
    static Map<String, Object> startupProperties(Map<String, String> env) {
        Map<String, Object> props = new HashMap<>(StorageSettings.properties(env));
        boolean testnet = "0x80000000".equalsIgnoreCase(env.getOrDefault("STACKS_CHAIN_ID", "").trim());
        if (StorageSettings.usesPostgres(env) || testnet) {
            props.put("demo-data.enabled", false);
        }
        props.put("stacks.event-observer.enabled", !"readonly".equals(apiMode(env)));
        props.put("stacks.event-observer.host", env.getOrDefault("STACKS_CORE_EVENT_HOST", "127.0.0.1"));
        props.put("stacks.event-observer.port", Integer.parseInt(env.getOrDefault("STACKS_CORE_EVENT_PORT", "3700")));
        return props;
    }

    static String apiMode(Map<String, String> env) {
        return env.getOrDefault("STACKS_API_MODE", "default").trim().toLowerCase(Locale.ROOT);
    }

    /** A context for a maintenance command: the database and the write path, no servers, no demo chain. */
    static ApplicationContext commandContext() {
        Map<String, Object> props = startupProperties(System.getenv());
        props.put("stacks.event-observer.enabled", false);
        props.put("demo-data.enabled", false);
        return ApplicationContext.builder(Application.class).properties(props).start();
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = "Ingests a recorded event log (TSV: id, timestamp, path, JSON) into the configured database,"
                    + " in order. Idempotent.")
    static final class Replay implements Callable<Integer> {

        @Parameters(paramLabel = "FILE.tsv", description = "the event log")
        Path file;

        @Override
        public Integer call() throws Exception {
            if (!Files.isReadable(file)) {
                System.err.println("cannot read " + file);
                return 2;
            }
            long total = TsvReplay.countLines(file);
            try (ApplicationContext context = commandContext();
                 ProgressBar bar = new ProgressBarBuilder().setTaskName("replay").setInitialMax(total)
                         .setUnit(" events", 1).build()) {
                TsvReplay.Summary summary = TsvReplay.replay(file, context.getBean(EventIngestor.class), false,
                        bar::stepTo);
                bar.close();
                System.out.println("replayed " + file.getFileName() + ": " + summary);
                return summary.rejected() == 0 ? 0 : 1;
            }
        }
    }

    @Command(name = "rebuild", mixinStandardHelpOptions = true,
            description = "Empties every derived table and re-derives it from the stored raw node payloads.")
    static final class Rebuild implements Callable<Integer> {

        @Override
        public Integer call() {
            long started = System.nanoTime();
            try (ApplicationContext context = commandContext()) {
                EventIngestor ingestor = context.getBean(EventIngestor.class);
                long total = ingestor.storedPayloadCount();
                try (ProgressBar bar = new ProgressBarBuilder().setTaskName("rebuild").setInitialMax(total)
                        .setUnit(" events", 1).build()) {
                    long[] done = {0};
                    ingestor.rebuild(id -> bar.stepTo(++done[0]));
                }
                var stats = ingestor.stats();
                System.out.printf("rebuilt from %d payloads: %s, %.1f s%n", total, stats,
                        (System.nanoTime() - started) / 1e9);
                return 0;
            }
        }
    }
}
