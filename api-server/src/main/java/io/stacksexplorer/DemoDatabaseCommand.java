package io.stacksexplorer;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.demo.DemoDataLoader;
import io.stacksexplorer.demo.DemoDataSettings;
import io.stacksexplorer.demo.DemoDatabase;
import io.stacksexplorer.generate.Preset;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code demo-database DIR}: writes the demo chain's embedded database for this jar ({@link DemoDatabase}).
 * The build runs it after packaging ({@code target/demo-chain}); the server's first start copies the
 * result. Also here: that copy, made before Micronaut starts, while no connection holds the file.
 */
@Command(name = "demo-database", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class,
        description = "Writes the demo chain (preset demo) into a new embedded database in DIR, stamped with this"
                + " jar; a server started from the same jar on an empty embedded database copies it instead of"
                + " generating the chain (the build runs this into target/demo-chain).")
final class DemoDatabaseCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(DemoDatabaseCommand.class);

    @Parameters(paramLabel = "DIR", description = "a folder for the database; emptied of an earlier one first")
    Path folder;

    @Option(names = "--rehearse-first-start", description = "then start the server on a copy as a first start"
            + " would, ask each route once and stop: the build records the classes this run loads"
            + " (java -XX:ArchiveClassesAtExit=target/api-server.jsa) for README's run command's class-data archive")
    boolean rehearse;

    /**
     * What the rehearsal asks, every route of README's examples once (a 400 among them, for the error
     * path): the point is which classes a first start and its first requests load, not the answers.
     */
    private static final List<String> REHEARSED = List.of("/extended", "/extended/v1/status",
            "/extended/v2/blocks/latest", "/extended/v2/blocks/1", "/extended/v1/block/by_height/2",
            "/extended/v2/smart-contracts/status?contract_id=SP1HA3W9FTGZEC5TCGJQ69SS4Z015T23FZAG8BK8Y.demo-dex",
            "/extended/v1/contract/SP1HA3W9FTGZEC5TCGJQ69SS4Z015T23FZAG8BK8Y.demo-dex/events?limit=5",
            "/extended/v2/smart-contracts/SP1HA3W9FTGZEC5TCGJQ69SS4Z015T23FZAG8BK8Y.demo-dex/logs?limit=5",
            "/extended/v2/addresses/SP3E6031YCXQRYY45QGXNP10X2P8NG07ST6WVGTXF/transactions?limit=5&offset=100",
            "/extended/v1/address/SP3E6031YCXQRYY45QGXNP10X2P8NG07ST6WVGTXF/mempool",
            "/extended/v1/tx/multiple?tx_id=0x71f51241b6c00e51da89ea3b7bb724f21af771cb31324e617db76199112d71ec",
            "/extended/v1/address/not-an-address/mempool");

    @Override
    public Integer call() throws Exception {
        Optional<Path> jar = DemoDatabase.runningJar();
        if (jar.isEmpty()) {
            System.err.println("demo-database stamps the database with the jar it runs from: run it with java -jar");
            return 2;
        }
        Files.createDirectories(folder);
        Path base = folder.resolve(DemoDatabase.BASE_NAME);
        try (var earlier = Files.list(folder)) {
            for (Path file : earlier.filter(f -> f.getFileName().toString().startsWith(DemoDatabase.BASE_NAME)).toList()) {
                Files.delete(file);
            }
        }
        Map<String, String> env = plainH2File(base);
        long seed;
        try (ApplicationContext context = Application.commandContext(env)) {
            DemoDataLoader loader = context.getBean(DemoDataLoader.class);
            seed = context.getBean(DemoDataSettings.class).getSeed();
            if (loader.loadIfEmpty().isEmpty()) {
                throw new IllegalStateException("the new database in " + folder + " already held blocks");
            }
        }
        DemoDatabase.seal(folder, jar.get(), seed);
        if (rehearse) {
            rehearseFirstStart();
        }
        return 0;
    }

    /** A first start from a copy of the sealed database, on ports of its own, and one request per route. */
    private void rehearseFirstStart() throws Exception {
        Path scratch = Files.createTempDirectory("demo-first-start");
        try {
            Map<String, String> env = plainH2File(scratch.resolve(DemoDatabase.BASE_NAME));
            // and the defaults a new user's first start has
            List.of("DEMO_DATA", "DEMO_DATA_PREBUILT", "DEMO_DATA_SEED", "STACKS_API_MODE").forEach(env::remove);
            Map<String, Object> props = Application.startupProperties(env);
            props.put("micronaut.server.port", -1);
            props.put("stacks.event-observer.port", 0);
            props.put("stacks.metrics.port", 0);
            placeOnFirstStart(env, props, List.of());
            if (!Boolean.TRUE.equals(props.get("demo-data.copied-from-this-jar"))) {
                throw new IllegalStateException("the rehearsal did not copy the database it was to start from");
            }
            HttpClient http = HttpClient.newHttpClient();
            try (ApplicationContext server = Micronaut.build(new String[0]).mainClass(Application.class).properties(props).start()) {
                int port = server.getBean(EmbeddedServer.class).getPort();
                for (String path : REHEARSED) {
                    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
                    if (answer.statusCode() >= 500) {
                        throw new IllegalStateException(path + " answered " + answer.statusCode() + ": " + answer.body());
                    }
                }
            }
        } finally {
            try (var files = Files.walk(scratch)) {
                for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /** This process's environment, but storing in a plain H2 file at {@code base}, whatever it named. */
    private static Map<String, String> plainH2File(Path base) {
        Map<String, String> env = new HashMap<>(System.getenv());
        List.of("PG_HOST", "H2_IN_MEMORY", "H2_COMPRESS", "H2_FSYNC").forEach(env::remove);
        env.put("H2_FILE", base.toString());
        return env;
    }

    /**
     * On a server's start: copies the demo database built with this jar into the embedded database's
     * place when the demo chain would be generated into a new file and nothing chose otherwise (another
     * seed, {@code DEMO_DATA_PREBUILT=false}); then the start-up loader is switched off, the chain being
     * there. Whatever goes wrong here only means the chain is generated live, as without a copy.
     */
    static void placeOnFirstStart(Map<String, String> env, Map<String, Object> props, List<String> serverArgs) {
        Optional<Path> h2Base = StorageSettings.h2Base(env);
        boolean demoWanted = !Boolean.FALSE.equals(props.get("demo-data.enabled"))
                && !"false".equalsIgnoreCase(env.getOrDefault("DEMO_DATA", "true").trim())
                && !"false".equalsIgnoreCase(env.getOrDefault("DEMO_DATA_PREBUILT", "true").trim())
                && !env.containsKey("DEMO_DATA_SEED")
                && serverArgs.stream().noneMatch(a -> a.contains("demo-data."));
        Optional<Path> jar = demoWanted && h2Base.isPresent() ? DemoDatabase.runningJar() : Optional.empty();
        if (jar.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        try {
            DemoDatabase.Placement placed = DemoDatabase.placeIfNew(
                    jar.get().resolveSibling(DemoDatabase.FOLDER), jar.get(), Preset.DEMO.seed(), h2Base.get());
            if (placed.copied()) {
                // The chain is there, and so is this jar's schema: the build migrated the file with this
                // jar's migrations (ops.MigratedHere), so neither the loader nor Flyway has work to do.
                props.put("demo-data.enabled", false);
                props.put("flyway.datasources.default.enabled", false);
                props.put("demo-data.copied-from-this-jar", true);
                LOG.info("Demo data (preset demo, seed {}): {} built with this jar ({} MB, {} ms)",
                        Preset.DEMO.seed(), placed.why(), placed.bytes() >> 20, (System.nanoTime() - started) / 1_000_000);
            } else if (!placed.databaseExisted()) {
                LOG.info("Demo data: {}; generating it", placed.why());
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Demo data: could not copy the prebuilt database ({}); generating it", e.toString());
        }
    }
}
