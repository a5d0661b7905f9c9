package io.stacksexplorer.spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the project root (the folder holding {@code spec} and {@code api-server}) by walking up from the working
 * directory, and the optional shared folder next to it ({@code ../shared}), which tests may read but never copy.
 */
final class ProjectLayout {
    private ProjectLayout() { }

    static Path root() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("spec")) && Files.isDirectory(d.resolve("api-server"))) {
                return d;
            }
        }
        throw new IllegalStateException("no folder containing spec/ and api-server/ above " + dir);
    }

    /** spec/openapi.yaml, or the file named by system property {@code spec.file} (e.g. via surefire's argLine). */
    static Path spec() {
        String override = System.getProperty("spec.file");
        if (override != null && !override.isBlank()) {
            return Path.of(override).toAbsolutePath().normalize();
        }
        return root().resolve("spec").resolve("openapi.yaml");
    }

    /** {@code ../shared/<relative>} when it exists. */
    static Optional<Path> shared(String relative) {
        Path root = root();
        if (root.getParent() == null) {
            return Optional.empty();
        }
        Path p = root.getParent().resolve("shared").resolve(relative);
        return Files.exists(p) ? Optional.of(p) : Optional.empty();
    }
}
