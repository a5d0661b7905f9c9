package io.stacksexplorer.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
 *
 * <p>Enums are open in this contract: a chain upgrade adds values to answers (a transaction status, a
 * post-condition type), announced in a minor version, and clients accept values they do not know (the
 * Java client decodes them as {@code UNKNOWN_DEFAULT_OPEN_API}). openapi-diff counts every value added to
 * a response enum as a break, so the gate compares against the released contract with the values the
 * current one adds to its enums, provided the current schema's description names each added value (and
 * with it the epoch or release that brought it); everything else is judged by openapi-diff as before.
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

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The gate's comparison: {@code released} extended by the described enum values {@code current} adds. */
    static ChangedOpenApi compare(String released, String current, List<String> undescribed) throws IOException {
        JsonNode releasedTree = YAML.readTree(released);
        addDescribedEnumValues(releasedTree, YAML.readTree(current), "", undescribed);
        return OpenApiCompare.fromContents(YAML.writeValueAsString(releasedTree), current);
    }

    private static void addDescribedEnumValues(JsonNode released, JsonNode current, String at, List<String> undescribed) {
        if (released instanceof ObjectNode releasedObject && current.isObject()) {
            if (releasedObject.get("enum") instanceof ArrayNode known && current.get("enum") instanceof ArrayNode now) {
                String description = current.path("description").asText("");
                for (JsonNode value : now) {
                    boolean isNew = true;
                    for (JsonNode old : known) {
                        isNew &= !old.equals(value);
                    }
                    if (isNew && description.contains(value.asText())) {
                        known.add(value);
                    } else if (isNew) {
                        undescribed.add(at + ": " + value.asText());
                    }
                }
            }
            releasedObject.fields().forEachRemaining(field -> {
                if (current.has(field.getKey())) {
                    addDescribedEnumValues(field.getValue(), current.get(field.getKey()), at + "/" + field.getKey(),
                            undescribed);
                }
            });
        } else if (released.isArray() && current.isArray()) {
            for (int i = 0; i < Math.min(released.size(), current.size()); i++) {
                addDescribedEnumValues(released.get(i), current.get(i), at + "/" + i, undescribed);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> undescribed = new ArrayList<>();
        ChangedOpenApi diff = compare(Files.readString(Path.of(args[0])), Files.readString(Path.of(args[1])), undescribed);
        ChangedOpenApi everything = OpenApiCompare.fromLocations(args[0], args[1]);
        Path report = Path.of(args[2]);
        Files.createDirectories(report.toAbsolutePath().getParent());
        // The report lists every change, the added enum values included.
        String body = new MarkdownRender().render(everything);
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
        if (!undescribed.isEmpty()) {
            System.err.println("Enum values added without naming them in their schema's description: " + undescribed);
            System.exit(1);
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
