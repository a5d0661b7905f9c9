package io.stacksexplorer.conformance;

import com.atlassian.oai.validator.report.ValidationReport;

import java.util.List;

/** Readable validation reports: one line per message (nested ones indented), with key and location. */
public final class SpecReports {

    private SpecReports() {
    }

    public static String format(ValidationReport report) {
        StringBuilder out = new StringBuilder();
        append(out, report.getMessages(), "  ");
        return out.toString().stripTrailing();
    }

    private static void append(StringBuilder out, List<ValidationReport.Message> messages, String indent) {
        for (ValidationReport.Message m : messages) {
            if (m.getLevel() != ValidationReport.Level.ERROR) {
                continue;
            }
            out.append(indent).append("- [").append(m.getKey()).append("] ").append(m.getMessage())
                    .append(m.getContext().flatMap(c -> c.getPointers().map(p -> " (at " + p.getInstance() + ")"))
                            .orElse(""))
                    .append('\n');
            append(out, m.getNestedMessages(), indent + "    ");
        }
    }
}
