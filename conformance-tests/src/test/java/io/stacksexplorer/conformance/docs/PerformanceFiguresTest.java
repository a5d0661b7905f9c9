package io.stacksexplorer.conformance.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README's Performance table says what the project does today, and docs/performance.md says how each
 * figure was measured; a figure changed in one and not the other, or a row without its section, fails
 * here. Each row links to one section of docs/performance.md, and every figure of the row (each
 * number, each date) must stand unchanged in that section: the figure has one place, and README
 * quotes it. The table stays short (at most 10 rows), and so does today's page (at most 400 lines:
 * the history goes to docs/history/). Links with a {@code #fragment} into a page of README or docs/
 * must name a heading of that page, so that moving a section moves its links with it.
 */
class PerformanceFiguresTest {

    private static final Path README = Path.of(System.getProperty("readme.file"));
    private static final Path ROOT = README.toAbsolutePath().getParent();
    private static final Path PERFORMANCE = ROOT.resolve("docs/performance.md");

    private static final int MAX_ROWS = 10;
    private static final int MAX_LINES = 400;

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    /** A number as written: digits with thousands commas or a decimal point, not part of a word (p50, v9, -Xmx256m). */
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.,])\\d+(?:[.,]\\d+)*");

    @Test
    void everyFigureOfReadmesTableStandsInTheSectionItLinksTo() throws IOException {
        List<String> rows = performanceRows(Files.readString(README));
        Map<String, String> sections = sections(Files.readString(PERFORMANCE));
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (String row : rows) {
            List<String> anchors = new ArrayList<>();
            Matcher link = LINK.matcher(row);
            while (link.find()) {
                String target = link.group(1);
                if (target.startsWith("docs/performance.md#")) {
                    anchors.add(target.substring(target.indexOf('#') + 1));
                }
            }
            if (anchors.size() != 1) {
                problems.add("row does not link to exactly one section of docs/performance.md: " + row);
                continue;
            }
            String section = sections.get(anchors.get(0));
            if (section == null) {
                problems.add("no section #" + anchors.get(0) + " in docs/performance.md: " + row);
                continue;
            }
            for (String figure : figures(row)) {
                checked++;
                if (!standsIn(figure, section)) {
                    problems.add(figure + " is not in docs/performance.md#" + anchors.get(0) + " (row: "
                            + row.substring(0, Math.min(row.length(), 80)) + "…)");
                }
            }
        }
        assertTrue(checked >= rows.size(), "README's Performance table has hardly any figure: " + rows);
        assertEquals(List.of(), problems, "README's Performance table and docs/performance.md disagree");
    }

    @Test
    void theTableAndTodaysPageStayShort() throws IOException {
        List<String> rows = performanceRows(Files.readString(README));
        assertFalse(rows.isEmpty(), "README has no Performance table");
        assertTrue(rows.size() <= MAX_ROWS, "README's Performance table has " + rows.size()
                + " rows; at most " + MAX_ROWS + ", one per capability");
        long lines = Files.readAllLines(PERFORMANCE).size();
        assertTrue(lines <= MAX_LINES, "docs/performance.md has " + lines + " lines; at most " + MAX_LINES
                + " (today's figures; how they were reached goes to docs/history/)");
    }

    @Test
    void everyLinkToASectionOfAPageFindsIt() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(README));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page).replaceAll("(?s)```.*?```", "");
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                String target = link.group(1);
                int hash = target.indexOf('#');
                if (hash < 0 || target.contains("://")) {
                    continue;
                }
                Path linked = hash == 0 ? page : page.getParent().resolve(target.substring(0, hash)).normalize();
                if (!linked.toString().endsWith(".md") || !Files.exists(linked)) {
                    continue; // DocumentedPathsTest reports missing files
                }
                if (!sections(Files.readString(linked)).containsKey(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(page) + ": " + target);
                }
            }
        }
        assertEquals(List.of(), broken, "links to a section that is not on the page (moved or renamed?)");
    }

    /** The patterns themselves are checked, not only today's text. */
    @Test
    void figuresAreReadAsWritten() {
        assertEquals(List.of("1,000,000", "553", "5,699", "0.14", "0.45", "62.9", "2026-12-02"),
                figures("| `replay` of the 1,000,000-transaction log, p50 v9 | **553 blocks/s, 5,699 tx/s**, "
                        + "0.14–0.45, 62.9× at `-Xmx256m` | 2026-12-02 | [replay](docs/performance.md#x1-y) |"));
        assertTrue(standsIn("1,000", "1,000 subscribers"));
        assertFalse(standsIn("1,000", "1,000,000 transactions"));
        assertFalse(standsIn("130", "1,130 payloads"));
        assertFalse(standsIn("9.5", "19.5 GB"));
        assertEquals("replay-node-event-log", slug("Replay (node-event log)"));
        assertEquals("read-path-http-routes", slug("Read path (HTTP routes)"));
    }

    /** The rows of the first table under README's "## Performance", without header and separator. */
    static List<String> performanceRows(String readme) {
        int start = readme.indexOf("\n## Performance\n");
        assertTrue(start >= 0, "README has no '## Performance' section");
        int end = readme.indexOf("\n## ", start + 1);
        String section = end < 0 ? readme.substring(start) : readme.substring(start, end);
        List<String> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : section.split("\n")) {
            if (line.startsWith("|")) {
                inTable = true;
                rows.add(line);
            } else if (inTable) {
                break;
            }
        }
        return rows.size() < 2 ? List.of() : rows.subList(2, rows.size());
    }

    /** Each date and each number of a row, in order; link targets are not figures. */
    static List<String> figures(String row) {
        String text = LINK.matcher(row).replaceAll("]");
        List<String> figures = new ArrayList<>();
        Matcher date = DATE.matcher(text);
        List<int[]> dates = new ArrayList<>();
        while (date.find()) {
            dates.add(new int[] {date.start(), date.end()});
        }
        Matcher number = NUMBER.matcher(text);
        int d = 0;
        while (number.find()) {
            while (d < dates.size() && dates.get(d)[1] <= number.start()) {
                d++;
            }
            if (d < dates.size() && number.start() >= dates.get(d)[0]) {
                if (number.start() == dates.get(d)[0]) {
                    figures.add(text.substring(dates.get(d)[0], dates.get(d)[1]));
                }
                continue;
            }
            figures.add(number.group());
        }
        return figures;
    }

    /** The figure as a whole number in the text: not the end of a larger one, nor its start. */
    static boolean standsIn(String figure, String text) {
        return Pattern.compile("(?<![\\w.,])" + Pattern.quote(figure) + "(?![\\w]|[.,]\\d)").matcher(text).find();
    }

    /** A page's sections by their GitHub anchor: a heading and everything up to the next heading of its level or above. */
    static Map<String, String> sections(String markdown) {
        String[] lines = markdown.replaceAll("(?s)```.*?```", "```").split("\n");
        Map<String, String> sections = new LinkedHashMap<>();
        for (int i = 0; i < lines.length; i++) {
            int level = headingLevel(lines[i]);
            if (level == 0) {
                continue;
            }
            StringBuilder body = new StringBuilder(lines[i]).append('\n');
            for (int j = i + 1; j < lines.length; j++) {
                int next = headingLevel(lines[j]);
                if (next > 0 && next <= level) {
                    break;
                }
                body.append(lines[j]).append('\n');
            }
            sections.putIfAbsent(slug(lines[i].substring(level).trim()), body.toString());
        }
        return sections;
    }

    private static int headingLevel(String line) {
        int level = 0;
        while (level < line.length() && line.charAt(level) == '#') {
            level++;
        }
        return level > 0 && level <= 6 && line.length() > level && line.charAt(level) == ' ' ? level : 0;
    }

    /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
    static String slug(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
