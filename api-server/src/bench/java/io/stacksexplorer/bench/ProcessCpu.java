package io.stacksexplorer.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU seconds (user + system) that Linux has counted for processes and threads, read from
 * {@code /proc}: where a benchmark's time went, by who spent it (the server's compiler threads, its
 * observer and deriving threads, PostgreSQL's processes, the benchmark's own JVM). Empty where there
 * is no {@code /proc}.
 */
final class ProcessCpu {

    /** Linux reports CPU time in clock ticks of USER_HZ, which is 100 on every mainstream kernel. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** Thread name prefixes (as /proc shows them, cut to 15 characters) and the group each counts in. */
    private static final List<Map.Entry<String, String>> GROUPS = List.of(
            Map.entry("C2 CompilerThre", "JIT compilers"),
            Map.entry("C1 CompilerThre", "JIT compilers"),
            Map.entry("event-observer-", "listener I/O thread"),
            Map.entry("event-observer", "observer thread"),
            Map.entry("event-derivatio", "deriving thread"),
            Map.entry("GC Thread", "garbage collector"),
            Map.entry("G1 ", "garbage collector"));

    private ProcessCpu() {
    }

    /** A process's CPU seconds by thread group ({@link #GROUPS}; the rest as "other threads"). */
    static Map<String, Double> threadsOf(long pid) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return seconds;
        }
        try (Stream<Path> threads = Files.list(tasks)) {
            threads.forEach(thread -> {
                Stat stat = stat(thread.resolve("stat"));
                if (stat != null) {
                    seconds.merge(group(stat.name()), stat.seconds(), Double::sum);
                }
            });
        } catch (IOException e) {
            // The process ended while it was read: what was read stands.
        }
        return seconds;
    }

    /** CPU seconds of each live process with this command name (e.g. {@code postgres}: the server and its backends), by pid. */
    static Map<Long, Double> byProcess(String name) {
        Map<Long, Double> seconds = new LinkedHashMap<>();
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : (Iterable<Path>) processes::iterator) {
                String pid = process.getFileName().toString();
                if (pid.chars().allMatch(Character::isDigit)) {
                    Stat stat = stat(process.resolve("stat"));
                    if (stat != null && stat.name().equals(name)) {
                        seconds.put(Long.parseLong(pid), stat.seconds());
                    }
                }
            }
        } catch (IOException e) {
            return seconds;
        }
        return seconds;
    }

    /**
     * CPU seconds that processes spent between two {@link #byProcess} readings: a process seen in both
     * counts its growth, one that started meanwhile all of its time. One that ended meanwhile is gone
     * from the second reading with what it spent (a short-lived backend): an underestimate, never the
     * negative total that subtracting two sums gives when a process ends.
     */
    static double spentBetween(Map<Long, Double> before, Map<Long, Double> after) {
        double spent = 0;
        for (Map.Entry<Long, Double> process : after.entrySet()) {
            spent += Math.max(0, process.getValue() - before.getOrDefault(process.getKey(), 0.0));
        }
        return spent;
    }

    /** CPU seconds of one process, all its threads together. */
    static double process(long pid) {
        Stat stat = stat(Path.of("/proc", Long.toString(pid), "stat"));
        return stat == null ? 0 : stat.seconds();
    }

    /** {@code after - before}, group by group. */
    static Map<String, Double> minus(Map<String, Double> after, Map<String, Double> before) {
        Map<String, Double> spent = new LinkedHashMap<>();
        after.forEach((group, seconds) -> spent.put(group, seconds - before.getOrDefault(group, 0.0)));
        return spent;
    }

    private static String group(String threadName) {
        for (Map.Entry<String, String> group : GROUPS) {
            if (threadName.startsWith(group.getKey())) {
                return group.getValue();
            }
        }
        return "other threads";
    }

    private record Stat(String name, double seconds) {
    }

    /**
     * One {@code stat} line: the name is between the first '(' and the last ')' (it may hold spaces
     * and parentheses), utime and stime are the 12th and 13th fields after it (proc(5)).
     */
    private static Stat stat(Path file) {
        String line;
        try {
            line = Files.readString(file);
        } catch (IOException e) {
            return null;
        }
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open) {
            return null;
        }
        String[] fields = line.substring(close + 2).trim().split(" ");
        if (fields.length < 13) {
            return null;
        }
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return new Stat(line.substring(open + 1, close), ticks / TICKS_PER_SECOND);
    }
}
