package io.stacksexplorer.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Timed runs of the {@code replay} command for {@code scale.ScaleBenchmark} (issue 51: a figure is
 * the median of several runs, not one reading of a fast or slow hour): each build's packaged jar
 * (this one's and, with a baseline commit, that commit's, exported and packaged as
 * {@link ThroughputBenchmark} does) in a JVM of its own ({@code -Xmx512m}; wall clock with the JVM's
 * start and the replay's final {@code ANALYZE}), into a new PostgreSQL schema per run, which that
 * build's own migrations create. The caller runs the builds alternately within each run, so that
 * the two readings of a run share an hour of the machine; {@link #table} gives the medians and the
 * ratios run by run ({@link Medians}).
 */
public final class ReplayRuns {

    /** The build that ran the benchmark: its own packaged jar. */
    public static final String THIS_BUILD = "this build";

    private final Map<String, Path> builds = new LinkedHashMap<>();
    private final List<Medians.Reading> readings = new ArrayList<>();
    private final long transactions;
    private final long blocks;

    /**
     * @param module   the api-server module (its {@code target/api-server.jar} is this build)
     * @param baseline a commit to run first in every run, or blank for this build alone
     */
    public ReplayRuns(Path module, String baseline, long transactions, long blocks) throws Exception {
        if (!baseline.isBlank()) {
            builds.put(baseline, ThroughputBenchmark.baselineJar(module.getParent(),
                    module.resolve("target/bench-baseline-" + baseline), baseline));
        }
        builds.put(THIS_BUILD, module.resolve("target/api-server.jar"));
        this.transactions = transactions;
        this.blocks = blocks;
    }

    /** The builds in the order each run takes them: the baseline first, then this build. */
    public Map<String, Path> builds() {
        return builds;
    }

    /** A new schema's name: one per run, so that no run finds another's rows. */
    public static String newSchema() {
        return "replay_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** The JVM options every timed replay runs with, so that the runs of one benchmark compare. */
    public static final List<String> REPLAY_JVM = List.of("-Xmx512m");

    /** {@link #command(Path, List, List, Map, Runnable, Path)} in a JVM of {@link #REPLAY_JVM}, as the replays are timed. */
    public static double command(Path jar, List<String> args, Map<String, String> env, Runnable whileRunning,
                                 Path output) throws Exception {
        return command(jar, REPLAY_JVM, args, env, whileRunning, output);
    }

    /**
     * One run of a command: its wall-clock seconds, its own CPU seconds (all its threads) and those of
     * every {@code postgres} process of the machine meanwhile (the server's backends, checkpointer,
     * WAL writer, autovacuum: every cluster's), each read from {@code /proc} four times a second while
     * it runs, so a backend that ended with the command counts up to its last reading (the last quarter
     * second of each process is missed).
     */
    public record Timed(double seconds, double cpuSeconds, double postgresCpuSeconds) {

        /** Both together as a share of what this machine's cores give in the wall-clock time. */
        public double machineShare() {
            return (cpuSeconds + postgresCpuSeconds) / (seconds * Runtime.getRuntime().availableProcessors());
        }

        @Override
        public String toString() {
            return String.format("%.0f s; CPU: the command %.0f s, PostgreSQL %.0f s (%.0f %% of %d cores)", seconds,
                    cpuSeconds, postgresCpuSeconds, 100 * machineShare(), Runtime.getRuntime().availableProcessors());
        }
    }

    /**
     * Runs {@code java jvm... -jar jar args...} with {@code env} (PG_* or H2_*, and any other setting) to its
     * end, {@code whileRunning} (when not null) called again and again meanwhile; returns the wall-clock
     * seconds. Its output goes to {@code output}.
     */
    public static double command(Path jar, List<String> jvm, List<String> args, Map<String, String> env,
                                 Runnable whileRunning, Path output) throws Exception {
        return timed(jar, jvm, args, env, whileRunning, output).seconds();
    }

    /** As {@link #command(Path, List, List, Map, Runnable, Path)}, with the CPU the command and PostgreSQL spent. */
    public static Timed timed(Path jar, List<String> jvm, List<String> args, Map<String, String> env,
                              Runnable whileRunning, Path output) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jvm);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        // PG_HOST wins over H2_FILE (StorageSettings): a shell that exported PG_* for another part must
        // not send an H2 replay to PostgreSQL, nor a PostgreSQL replay to a schema it did not ask for.
        builder.environment().keySet().removeIf(name -> name.startsWith("PG_") || name.startsWith("H2_"));
        builder.environment().put("DEMO_DATA", "false");
        builder.environment().putAll(env);
        Map<Long, Double> postgresBefore = ProcessCpu.byProcess("postgres");
        Map<Long, Double> postgresLast = new HashMap<>(postgresBefore);
        double[] ownCpu = {0};
        long started = System.nanoTime();
        Process process = builder.start();
        Thread cpu = new Thread(() -> {
            while (process.isAlive()) {
                ownCpu[0] = Math.max(ownCpu[0], ProcessCpu.process(process.pid()));
                ProcessCpu.byProcess("postgres").forEach((pid, seconds) -> postgresLast.merge(pid, seconds, Math::max));
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "replay-cpu");
        cpu.start();
        Thread probe = null;
        if (whileRunning != null) {
            probe = new Thread(() -> {
                while (process.isAlive()) {
                    whileRunning.run();
                }
            });
            probe.start();
        }
        if (!process.waitFor(3, TimeUnit.HOURS)) {
            process.destroyForcibly().waitFor();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (probe != null) {
            probe.join();
        }
        cpu.join();
        if (process.exitValue() != 0) {
            throw new IllegalStateException(args + " exited " + process.exitValue() + ", see " + output);
        }
        return new Timed(seconds, ownCpu[0], ProcessCpu.spentBetween(postgresBefore, postgresLast));
    }

    /** Notes one run's replay of one build in one configuration (a database, say). */
    public void record(String configuration, String build, int run, double seconds) {
        readings.add(new Medians.Reading(configuration, build, run, blocks / seconds, transactions / seconds));
    }

    /** Drops a schema a run replayed into (a million-transaction replay leaves some 6.6 GB). */
    public static void dropSchema(Map<String, String> env) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + env.get("PG_HOST") + ":"
                + env.get("PG_PORT") + "/" + env.get("PG_DATABASE"), env.get("PG_USER"), env.get("PG_PASSWORD"));
             Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS \"" + env.get("PG_SCHEMA") + "\" CASCADE");
        }
    }

    /** Medians and ranges of every configuration and build, and the ratios run by run. */
    public String table(int runs) {
        return Medians.table(readings, runs, "database");
    }
}
