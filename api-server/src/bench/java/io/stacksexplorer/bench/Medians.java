package io.stacksexplorer.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several runs of a configuration summed up as their median and range (issue 51: what an operator
 * gets is a median run, not the best reading of a fast hour), and, where a baseline build ran beside
 * this one, the ratio of the two builds run by run: the runs alternate builds, so each pair shares
 * an hour of the machine.
 */
public final class Medians {

    /** One run's rates of one build in one configuration. */
    public record Reading(String configuration, String build, int run, double blocksPerSecond, double txPerSecond) {
    }

    private Medians() {
    }

    /** The median of the values (the mean of the middle two for an even count); NaN for none. */
    public static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /**
     * A Markdown table: per configuration and build, blocks/s and tx/s as median (lowest-highest) of
     * the runs, and, for each build after the first, its blocks/s over the first build's, run by run
     * and their median. {@code configurationColumns} names the columns a configuration fills, separated
     * by {@code " | "} as the configurations' own text is ("database | derived | connection").
     */
    public static String table(List<Reading> readings, int runs, String configurationColumns) {
        Map<String, Map<String, List<Reading>>> byConfiguration = new LinkedHashMap<>();
        for (Reading r : readings) {
            byConfiguration.computeIfAbsent(r.configuration(), c -> new LinkedHashMap<>())
                    .computeIfAbsent(r.build(), b -> new ArrayList<>()).add(r);
        }
        StringBuilder out = new StringBuilder(String.format("%nMedians of %d runs (the builds alternating in each):%n%n", runs));
        int columns = configurationColumns.split(" \\| ").length;
        out.append("| ").append(configurationColumns).append(" | build | runs | blocks/s median (range) | tx/s median (range)"
                + " | blocks/s ÷ the first build's, run by run (median) |\n|").append("---|".repeat(columns + 1))
                .append("---:|---:|---:|---|\n");
        byConfiguration.forEach((configuration, byBuild) -> {
            List<Reading> first = byBuild.values().iterator().next();
            byBuild.forEach((build, runsOfBuild) -> {
                List<Double> blocks = runsOfBuild.stream().map(Reading::blocksPerSecond).toList();
                List<Double> txs = runsOfBuild.stream().map(Reading::txPerSecond).toList();
                out.append(String.format("| %s | %s | %d | %s | %s | %s |%n", configuration, build, runsOfBuild.size(),
                        summary(blocks), summary(txs), runsOfBuild == first ? "–" : ratios(first, runsOfBuild)));
            });
        });
        return out.toString();
    }

    /** {@code median (lowest-highest)}, whole numbers. */
    public static String summary(List<Double> values) {
        double low = values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double high = values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return String.format("%,.0f (%,.0f-%,.0f)", median(values), low, high);
    }

    /** This build's blocks/s over the baseline's in the same run, for the runs both have, and their median. */
    private static String ratios(List<Reading> baseline, List<Reading> build) {
        List<Double> ratios = new ArrayList<>();
        List<String> each = new ArrayList<>();
        for (Reading r : build) {
            baseline.stream().filter(b -> b.run() == r.run()).findFirst().ifPresent(b -> {
                double ratio = r.blocksPerSecond() / b.blocksPerSecond();
                ratios.add(ratio);
                each.add(String.format("%.2f", ratio));
            });
        }
        return ratios.isEmpty() ? "–" : String.join(" / ", each) + String.format(" (%.2f)", median(ratios));
    }
}
