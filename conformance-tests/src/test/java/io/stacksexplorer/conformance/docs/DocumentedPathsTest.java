package io.stacksexplorer.conformance.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README is the newcomer's map of the repository, so every path it names must exist: a file moved
 * or renamed without the README following fails here, not in a reader's hands. Checked are README's
 * relative links and every inline-code span that reads as a path in the tree (a {@code /} in it, no
 * space, no URL, nothing under {@code target/}, which only a build creates), resolved against the
 * repository root and the source roots README's Layout names packages and classes under; a class may
 * be named without {@code .java}. Relative links in {@code docs/} are checked too, so that README's
 * links lead somewhere and docs link to each other.
 */
class DocumentedPathsTest {

    private static final Path README = Path.of(System.getProperty("readme.file"));
    private static final Path ROOT = README.toAbsolutePath().getParent();

    /** Where README's Layout names paths from, besides the repository root. */
    private static final List<Path> BASES = List.of(
            ROOT,
            ROOT.resolve("api-server/src/main/java/io/stacksexplorer"),
            ROOT.resolve("api-server/src/test/java/io/stacksexplorer"),
            ROOT.resolve("conformance-tests/src/test/java/io/stacksexplorer/conformance"));

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern CODE = Pattern.compile("`([^`\\n]+)`");

    @Test
    void everyPathReadmeNamesExists() throws IOException {
        String readme = withoutFencedBlocks(Files.readString(README));
        List<String> missing = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        for (String target : links(readme)) {
            checked.add(target);
            if (!Files.exists(ROOT.resolve(target))) {
                missing.add("link " + target);
            }
        }
        Matcher code = CODE.matcher(readme);
        while (code.find()) {
            String span = code.group(1);
            if (!readsAsPath(span)) {
                continue;
            }
            checked.add(span);
            if (BASES.stream().noneMatch(base -> exists(base, span))) {
                missing.add(span);
            }
        }
        assertTrue(checked.size() > 20, "README names hardly any path; is the pattern still right? " + checked);
        assertEquals(List.of(), missing, "README names paths that are not in the tree");
    }

    @Test
    void everyRelativeLinkInDocsLeadsSomewhere() throws IOException {
        List<String> broken = new ArrayList<>();
        List<Path> pages;
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            pages = files.filter(f -> f.toString().endsWith(".md")).toList();
        }
        for (Path page : pages) {
            for (String target : links(withoutFencedBlocks(Files.readString(page)))) {
                if (!Files.exists(page.getParent().resolve(target))) {
                    broken.add(ROOT.relativize(page) + ": " + target);
                }
            }
        }
        assertEquals(List.of(), broken, "links in docs/ that lead nowhere");
    }

    /** A missing path must fail the check: the pattern itself is tested, not only the README. */
    @Test
    void aMissingPathIsFound() {
        assertTrue(readsAsPath("api-server/src/bench/java/"));
        assertTrue(readsAsPath("write/WriteSql.java"));
        assertTrue(BASES.stream().noneMatch(base -> exists(base, "write/NoSuchStore.java")));
        assertTrue(BASES.stream().anyMatch(base -> exists(base, "write/WriteSql.java")));
        assertTrue(!readsAsPath("/extended/v2/blocks/150") && !readsAsPath("api-server/target/api-server.jar")
                && !readsAsPath("http://localhost:3999") && !readsAsPath("./data/stacks-explorer"));
    }

    /** Relative link targets, without their #fragment; web addresses and in-page anchors are not files. */
    private static List<String> links(String markdown) {
        List<String> targets = new ArrayList<>();
        Matcher m = LINK.matcher(markdown);
        while (m.find()) {
            String target = m.group(1);
            if (target.startsWith("#") || target.contains("://") || target.startsWith("mailto:")) {
                continue;
            }
            int hash = target.indexOf('#');
            targets.add(hash < 0 ? target : target.substring(0, hash));
        }
        return targets;
    }

    /**
     * A path in the tree: has a slash, no space, is not a URL route or host (leading slash, colon), not
     * a build output ({@code target/}), not a runtime location ({@code ./data}, {@code ../shared}), and
     * holds no placeholder.
     */
    static boolean readsAsPath(String span) {
        return span.contains("/") && !span.contains(" ") && !span.startsWith("/") && !span.startsWith(".")
                && !span.contains(":") && !span.contains("target/") && !span.contains("…")
                && !span.contains("{") && !span.contains("<") && !span.contains("*");
    }

    private static boolean exists(Path base, String span) {
        return Files.exists(base.resolve(span)) || Files.exists(base.resolve(span + ".java"));
    }

    /** Commands and diagrams in fenced blocks name build outputs and runtime files, not the tree. */
    private static String withoutFencedBlocks(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "");
    }
}
