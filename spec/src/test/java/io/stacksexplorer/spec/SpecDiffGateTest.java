package io.stacksexplorer.spec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openapitools.openapidiff.core.OpenApiCompare;
import org.openapitools.openapidiff.core.model.ChangedOpenApi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The breaking-change gate lets compatible and announced changes through and stops the others. */
class SpecDiffGateTest {

    @TempDir
    Path dir;

    private ChangedOpenApi compareWith(String edited) throws IOException {
        Path current = dir.resolve("openapi.yaml");
        Files.writeString(current, edited);
        return OpenApiCompare.fromLocations(ProjectLayout.spec().toString(), current.toString());
    }

    @Test
    void unchangedContractPasses() throws IOException {
        assertTrue(SpecDiffReport.acceptable(compareWith(Files.readString(ProjectLayout.spec()))));
    }

    @Test
    void removedOperationFailsUnlessTheMajorVersionIsRaised() throws IOException {
        String spec = Files.readString(ProjectLayout.spec());
        String broken = spec.replace("  /extended/v2/blocks/{height_or_hash}:", "  /extended/v2/block/{height_or_hash}:");
        assertFalse(SpecDiffReport.acceptable(compareWith(broken)));
        String version = spec.lines().filter(l -> l.startsWith("  version: ")).findFirst().orElseThrow();
        int major = SpecDiffReport.major(version.substring("  version: ".length()));
        assertTrue(SpecDiffReport.acceptable(compareWith(broken.replace(version, "  version: " + (major + 1) + ".0.0"))));
    }

    @Test
    void addingAnOptionalPropertyIsCompatible() throws IOException {
        String spec = Files.readString(ProjectLayout.spec());
        String anchor = "        found:\n          type: boolean\n          description: Whether the transaction was found.\n";
        assertTrue(spec.contains(anchor));
        String added = spec.replace(anchor, "        note:\n          type: string\n"
                + "          description: A new optional remark.\n          example: x\n" + anchor);
        assertFalse(added.equals(spec));
        assertTrue(SpecDiffReport.acceptable(compareWith(added)));
    }

    @Test
    void anEnumValueAddedToAnswersPassesWhenItsDescriptionNamesIt() throws IOException {
        String spec = Files.readString(ProjectLayout.spec());
        String anchor = "      enum: [on_chain_only, off_chain_only, any]\n";
        assertTrue(spec.contains(anchor));
        String added = spec.replace(anchor, "      enum: [on_chain_only, off_chain_only, any, tenure_only]\n");
        List<String> undescribed = new ArrayList<>();
        assertFalse(SpecDiffReport.acceptable(compareWith(added)), "openapi-diff alone calls it a break");
        SpecDiffReport.compare(spec, added, undescribed);
        assertEquals(1, undescribed.size(), "not named in the description: " + undescribed);
        String described = added.replace("description: Whether the transaction may be mined in an anchor block, a microblock, or either.",
                "description: Whether the transaction may be mined in an anchor block, a microblock, or either; `tenure_only` (epoch 9).");
        assertFalse(described.equals(added));
        undescribed.clear();
        assertTrue(SpecDiffReport.acceptable(SpecDiffReport.compare(spec, described, undescribed)));
        assertTrue(undescribed.isEmpty(), undescribed.toString());
    }

    @Test
    void majorNumbersParse() {
        assertEquals(1, SpecDiffReport.major("1.0.0"));
        assertEquals(12, SpecDiffReport.major("v12.3.4-rc1"));
    }
}
