package io.stacksexplorer.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Benchmarks are compiled with the tests but must not ship in the test jar that conformance-tests
 * consumes. The jar leaves them out by name (api-server/pom.xml: {@code *Benchmark} classes and the
 * {@code io.stacksexplorer.bench} package), so a benchmark, or a helper only benchmarks use, placed
 * elsewhere would slip into the jar; and a benchmark left in src/test would sit among the tests again.
 */
class BenchSourcesTest {

    private static final Path BENCH = Path.of("src", "bench", "java");
    private static final Path TESTS = Path.of("src", "test", "java");

    @Test
    void everyBenchSourceIsOneTheTestJarLeavesOut() throws IOException {
        List<String> strays;
        try (Stream<Path> files = Files.walk(BENCH)) {
            strays = files.filter(Files::isRegularFile)
                    .map(f -> BENCH.relativize(f).toString().replace('\\', '/'))
                    .filter(f -> !f.endsWith("Benchmark.java") && !f.startsWith("io/stacksexplorer/bench/"))
                    .toList();
        }
        assertEquals(List.of(), strays, "name it …Benchmark or move it into io.stacksexplorer.bench");
    }

    @Test
    void noBenchmarkAmongTheTests() throws IOException {
        List<String> benchmarks;
        try (Stream<Path> files = Files.walk(TESTS)) {
            benchmarks = files.filter(f -> f.getFileName().toString().endsWith("Benchmark.java"))
                    .map(Path::toString)
                    .toList();
        }
        assertEquals(List.of(), benchmarks, "benchmarks belong in src/bench/java (docs/benchmarks.md)");
    }
}
