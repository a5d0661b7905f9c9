package io.stacksexplorer.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmarks' medians and ranges (issue 51): what README and docs quote. */
class MediansTest {

    @Test
    void theMedianIsTheMiddleRunOrTheMeanOfTheMiddleTwo() {
        assertEquals(130.0, Medians.median(List.of(282.0, 117.0, 130.0)));
        assertEquals(125.0, Medians.median(List.of(140.0, 110.0, 120.0, 130.0)));
        assertEquals(7.0, Medians.median(List.of(7.0)));
        assertTrue(Double.isNaN(Medians.median(List.of())));
        assertEquals("130 (117-282)", Medians.summary(List.of(282.0, 117.0, 130.0)));
    }

    @Test
    void eachConfigurationGetsItsBuildsMediansAndTheRatioRunByRun() {
        String config = "postgres | after-answer | kept alive";
        String table = Medians.table(List.of(
                new Medians.Reading(config, "28dcb1d", 1, 100, 1_000),
                new Medians.Reading(config, "this build", 1, 110, 1_100),
                new Medians.Reading(config, "28dcb1d", 2, 80, 800),
                new Medians.Reading(config, "this build", 2, 120, 1_200),
                new Medians.Reading(config, "28dcb1d", 3, 90, 900),
                new Medians.Reading(config, "this build", 3, 90, 900)), 3, "database | derived | connection");
        assertTrue(table.contains("| database | derived | connection | build | runs | blocks/s median (range) |"), table);
        assertTrue(table.contains("\n|---|---|---|---|---:|---:|---:|---|\n"), table);
        assertTrue(table.contains("| postgres | after-answer | kept alive | 28dcb1d | 3 | 90 (80-100) | 900 (800-1,000) | – |"),
                table);
        assertTrue(table.contains("| postgres | after-answer | kept alive | this build | 3 | 110 (90-120) | 1,100 (900-1,200)"
                + " | 1.10 / 1.50 / 1.00 (1.10) |"), table);
    }

    @Test
    void aConfigurationOfOneColumnGetsATableOfItsWidth() {
        String table = Medians.table(List.of(new Medians.Reading("PostgreSQL (own cluster)", "this build", 1, 553, 5_699)),
                1, "database");
        assertTrue(table.contains("| database | build | runs |"), table);
        assertTrue(table.contains("\n|---|---|---:|---:|---:|---|\n"), table);
        assertTrue(table.contains("| PostgreSQL (own cluster) | this build | 1 | 553 (553-553) | 5,699 (5,699-5,699) | – |"), table);
    }
}
