package io.stacksexplorer.spec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openapitools.openapidiff.core.OpenApiCompare;
import org.openapitools.openapidiff.core.model.ChangedOpenApi;
import org.openapitools.openapidiff.core.output.MarkdownRender;

/**
 * The build's breaking-change gate: compares the released contract with the current one using
 * openapi-diff, writes the report as Markdown, and fails (exit 1) on an incompatible change that is
 * not announced. Announcing a breaking change means raising the major number of {@code info.version}
 * above the released one's; the report still lists every change. (openapi-diff-maven 2.0.1 cannot
 * write a report nor tell an announced break from an accidental one.)
 * Arguments: released spec, current spec, report file.
 */
public final class SpecDiffReport {
    private SpecDiffReport() { }

    /** Whether the current contract may be built: compatible, or incompatible with a major version bump. */
    static boolean acceptable(ChangedOpenApi diff) {
        int releasedMajor = major(diff.getOldSpecOpenApi().getInfo().getVersion());
        int currentMajor = major(diff.getNewSpecOpenApi().getInfo().getVersion());
        return !diff.isIncompatible() || currentMajor > releasedMajor;
    }

    public static void main(String[] args) throws Exception {
        ChangedOpenApi diff = OpenApiCompare.fromLocations(args[0], args[1]);
        Path report = Path.of(args[2]);
        Files.createDirectories(report.toAbsolutePath().getParent());
        String body = new MarkdownRender().render(diff);
        // isCoreChanged() ignores response and header changes; these three cover everything reported.
        String verdict = diff.isUnchanged() ? "NO_CHANGES" : diff.isIncompatible() ? "INCOMPATIBLE" : "COMPATIBLE";
        Files.writeString(report, "# Contract changes since the released spec\n\nResult: " + verdict
                + " (released " + diff.getOldSpecOpenApi().getInfo().getVersion() + ", current "
                + diff.getNewSpecOpenApi().getInfo().getVersion() + ")\n\n" + body, StandardCharsets.UTF_8);
        // A compatible change is the normal case and the build stays quiet about it (the report has the
        // details); an announced break is worth a line on every build until it is released.
        if (diff.isIncompatible() && acceptable(diff)) {
            System.err.println("openapi-diff: INCOMPATIBLE, announced by info.version "
                    + diff.getNewSpecOpenApi().getInfo().getVersion() + "; see " + report);
        }
        if (!acceptable(diff)) {
            System.err.println("The contract changed incompatibly since the released spec (" + args[0]
                    + ") without a major version bump of info.version; see " + report);
            System.exit(1);
        }
    }

    static int major(String version) {
        String digits = version.trim().replaceFirst("^[vV]", "").split("[.\\-+]")[0];
        return Integer.parseInt(digits);
    }
}
