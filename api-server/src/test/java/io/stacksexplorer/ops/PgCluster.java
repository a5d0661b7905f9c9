package io.stacksexplorer.ops;

import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.http.TestDatabase;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of a test's own, from Debian's postgresql package binaries (initdb, pg_ctl,
 * pg_basebackup): in a temp dir, on a free loopback port, trust auth, stopped and deleted on
 * close. Tests that stop the database or replicate it use one, never the shared server. Run as
 * root, the binaries run as user postgres (initdb refuses root).
 */
public final class PgCluster implements AutoCloseable {

    /** Tests give up durability for speed; they stop, kill and replicate clusters, not disks. */
    private static final List<String> TEST_SETTINGS = List.of("fsync=off");

    private final Path bin;
    private final Path dir;
    private final int port;
    /** {@code name=value} server settings, given to the server at each start. */
    private final List<String> settings;
    private final Thread cleanup;

    private PgCluster(Path bin, Path dir, int port, List<String> settings) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.settings = List.copyOf(settings);
        this.cleanup = new Thread(this::stopQuietly, "pg-cluster-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** The newest installed server binaries, if any. */
    static Optional<Path> binaries() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl"))
                            && Files.isExecutable(b.resolve("pg_basebackup")))
                    .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", "0"))));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** PostgreSQL tests switched on and the binaries present. */
    public static boolean available() {
        return TestDatabase.postgresEnabled() && binaries().isPresent();
    }

    static PgCluster primary() throws Exception {
        return primary(TEST_SETTINGS);
    }

    /**
     * A cluster with PostgreSQL's durable defaults ({@code fsync}, {@code synchronous_commit} and
     * full-page writes on) and {@code settings} ({@code name=value}, e.g. {@code shared_buffers=2GB}):
     * for benchmarks that measure what production runs, with the memory a production server is given.
     */
    public static PgCluster durable(List<String> settings) throws Exception {
        return primary(settings);
    }

    private static PgCluster primary(List<String> settings) throws Exception {
        Path bin = binaries().orElseThrow();
        PgCluster cluster = new PgCluster(bin, newDir(), freePort(), settings);
        cluster.run(bin.resolve("initdb").toString(), "-D", cluster.data().toString(), "-U", "postgres",
                "--auth=trust", "-E", "UTF8", "--no-sync");
        Files.writeString(cluster.data().resolve("pg_hba.conf"), "\nhost replication all 127.0.0.1/32 trust\n",
                java.nio.file.StandardOpenOption.APPEND);
        cluster.start();
        return cluster;
    }

    /** A hot standby streaming from this cluster ({@code pg_basebackup -R}); public for LiveReadBenchmark. */
    public PgCluster standby() throws Exception {
        PgCluster standby = new PgCluster(bin, newDir(), freePort(), settings);
        standby.run(bin.resolve("pg_basebackup").toString(), "-h", "127.0.0.1", "-p", String.valueOf(port),
                "-U", "postgres", "-D", standby.data().toString(), "-R", "-X", "stream",
                // A spread checkpoint would take checkpoint_completion_target of checkpoint_timeout
                // (4.5 min by default) once the primary holds more than a few dirty pages.
                "--checkpoint=fast");
        standby.start();
        return standby;
    }

    int port() {
        return port;
    }

    /** The server's log file (pg_ctl -l). */
    Path logFile() {
        return dir.resolve("log");
    }

    /** The environment a server would be given for this cluster (database postgres). */
    public Map<String, String> env() {
        return Map.of("PG_HOST", "127.0.0.1", "PG_PORT", String.valueOf(port), "PG_USER", "postgres",
                "PG_PASSWORD", "", "PG_DATABASE", "postgres");
    }

    /** As {@link #env()}, with {@code schema} as the server's schema. */
    public Map<String, String> env(String schema) {
        Map<String, String> env = new HashMap<>(env());
        env.put("PG_SCHEMA", schema);
        return env;
    }

    /**
     * An API server's properties for this cluster's database {@code postgres} (its default schema,
     * or {@code schema} when not null), as {@link TestDatabase#freshProperties} gives them for the
     * shared server: no demo chain, a port of its own.
     */
    public Map<String, Object> serverProperties(String schema) {
        Map<String, Object> props = new HashMap<>(StorageSettings.properties(schema == null ? env() : env(schema)));
        props.put("demo-data.enabled", false);
        props.put("micronaut.server.port", -1);
        return props;
    }

    void start() throws Exception {
        run(bin.resolve("pg_ctl").toString(), "-D", data().toString(), "-l", dir.resolve("log").toString(), "-w",
                "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1"
                        + settings.stream().map(setting -> " -c " + setting).collect(Collectors.joining()), "start");
    }

    void stop() throws Exception {
        run(bin.resolve("pg_ctl").toString(), "-D", data().toString(), "-m", "fast", "-w", "stop");
    }

    private Path data() {
        return dir.resolve("data");
    }

    private void stopQuietly() {
        try {
            if (Files.exists(data().resolve("postmaster.pid"))) {
                stop();
            }
        } catch (Exception e) {
            // best effort at JVM exit
        }
    }

    @Override
    public void close() throws Exception {
        try {
            stopQuietly();
        } finally {
            Runtime.getRuntime().removeShutdownHook(cleanup);
            new ProcessBuilder("rm", "-rf", dir.toString()).inheritIO().start().waitFor(60, TimeUnit.SECONDS);
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static Path newDir() throws Exception {
        Path dir = Files.createTempDirectory("pg-cluster");
        if (root()) {
            new ProcessBuilder("chmod", "755", dir.toString()).start().waitFor();
            new ProcessBuilder("chown", "postgres", dir.toString()).start().waitFor();
        }
        return dir;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void run(String... command) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (root()) {
            cmd.addAll(List.of("su", "postgres", "-s", "/bin/sh", "-c", String.join(" ", Stream.of(command).map(PgCluster::quote).toList())));
        } else {
            cmd.addAll(List.of(command));
        }
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            String log = Files.exists(dir.resolve("log")) ? Files.readString(dir.resolve("log")) : "";
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output + "\n" + log);
        }
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
