package io.stacksexplorer.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No main source file of any module is longer than {@value #MAX_LINES} lines: a file a reader takes
 * in at one sitting (the project's rule; the write path was cut into steps to meet it). Generated
 * sources are not under {@code src/main/java} and are not counted.
 */
class SourceFileSizeTest {

    static final int MAX_LINES = 400;

    @Test
    void everyMainSourceFileFitsOneSitting() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).toList()) {
                try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
                }
            }
        }
        assertTrue(sources.size() > 100, "found the modules' sources: " + sources.size());
        List<String> tooLong = new ArrayList<>();
        for (Path source : sources) {
            long lines;
            try (Stream<String> all = Files.lines(source)) {
                lines = all.count();
            }
            if (lines > MAX_LINES) {
                tooLong.add(root.relativize(source) + " (" + lines + " lines)");
            }
        }
        assertEquals(List.of(), tooLong);
    }
}
