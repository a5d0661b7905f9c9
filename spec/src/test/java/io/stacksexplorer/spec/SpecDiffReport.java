package io.stacksexplorer.spec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openapitools.openapidiff.core.OpenApiCompare;
import org.openapitools.openapidiff.core.model.ChangedOpenApi;
import org.openapitools.openapidiff.core.output.MarkdownRender;

/**
 * Writes the released-vs-current contract diff as Markdown. openapi-diff-maven 2.0.1 can fail the build but
 * cannot write a report, and the 2.0.1 CLI jar is not on the reachable mirror, so the build runs this instead.
 * Arguments: released spec, current spec, report file.
 */
public final class SpecDiffReport {
    private SpecDiffReport() { }

    public static void main(String[] args) throws Exception {
        ChangedOpenApi diff = OpenApiCompare.fromLocations(args[0], args[1]);
        Path report = Path.of(args[2]);
        Files.createDirectories(report.toAbsolutePath().getParent());
        String body = new MarkdownRender().render(diff);
        String verdict = diff.isCoreChanged().name();
        Files.writeString(report, "# Contract changes since the released spec\n\nResult: " + verdict + "\n\n" + body,
            StandardCharsets.UTF_8);
        System.out.println("openapi-diff: " + verdict + ", report " + report);
    }
}
