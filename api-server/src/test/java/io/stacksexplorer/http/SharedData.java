package io.stacksexplorer.http;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The shared data beside the project ({@code <project root>/../shared/data}: recorded node-event logs,
 * the peer's answers), which tests read when it is there and skip without. The project root is the
 * nearest folder up from the working directory that holds both {@code spec} and {@code api-server},
 * so the same lookup works from any module. Shared with conformance-tests through the test-jar.
 */
public final class SharedData {

    private SharedData() {
    }

    /** {@code ../shared/data/<name>}, when that folder exists. */
    public static Optional<Path> folder(String name) {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isDirectory(dir.resolve("spec")) && Files.isDirectory(dir.resolve("api-server"))) {
                Path data = dir.resolveSibling("shared").resolve("data").resolve(name);
                return Files.isDirectory(data) ? Optional.of(data) : Optional.empty();
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }

    /** A recorded node-event log, {@code ../shared/data/stacks-node-events/<file>}, when it exists. */
    public static Optional<Path> nodeEventLog(String file) {
        return folder("stacks-node-events").map(events -> events.resolve(file)).filter(Files::isRegularFile);
    }
}
