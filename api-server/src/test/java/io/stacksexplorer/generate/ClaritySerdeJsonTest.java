package io.stacksexplorer.generate;

import io.stacksexplorer.http.SharedData;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.clarity.ClarityValue;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code value} field written beside {@code raw_value} equals what real stacks-nodes sent for
 * the same {@code raw_value} in every recorded log under {@code shared/data/stacks-node-events}
 * (skipped when the shared data is absent), field order aside.
 */
class ClaritySerdeJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The recorded logs went through JavaScript on their way here: integers above 2^53 lost
     * precision there (u128::MAX reads 340282366920938500000000000000000000000). The node itself
     * writes exact integers, as we do; numbers are compared as doubles.
     */
    private static final Comparator<JsonNode> SAME_NUMBER_OR_EQUAL = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return Double.compare(a.asDouble(), b.asDouble());
        }
        return a.equals(b) ? 0 : 1;
    };

    @Test
    void writesWhatTheNodeWroteForEveryRecordedEventValue() throws IOException {
        Path folder = SharedData.folder("stacks-node-events").orElse(null);
        Assumptions.assumeTrue(folder != null, "shared/data/stacks-node-events is absent");
        List<String> differences = new ArrayList<>();
        int compared = 0;
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".tsv")).sorted().toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String[] c = line.split("\t", 4);
                    if (c.length < 4 || !(c[2].equals("/new_block") || c[2].equals("/new_microblocks"))) {
                        continue;
                    }
                    for (JsonNode e : JSON.readTree(c[3]).path("events")) {
                        JsonNode d = e.path(e.path("type").asText());
                        if (d.has("value") && d.has("raw_value")) {
                            compared++;
                            JsonNode ours = serde(ClarityValue.decodeHex(d.get("raw_value").asText()));
                            if (!ours.equals(SAME_NUMBER_OR_EQUAL, d.get("value"))) {
                                differences.add(file.getFileName() + " " + d.get("raw_value").asText() + "\n  node: "
                                        + d.get("value") + "\n  ours: " + ours);
                            }
                        }
                    }
                }
            }
        }
        assertTrue(compared > 0, "the recorded logs carry values");
        assertEquals(List.of(), differences, compared + " compared");
    }

    private static JsonNode serde(ClarityValue value) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            ClaritySerdeJson.write(g, value);
        }
        return JSON.readTree(out.toString());
    }
}
