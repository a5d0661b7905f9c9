package io.stacksexplorer.spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The resources of section 2 ("Resources and their fields") of the seed document, read from its Markdown: one
 * {@link Resource} per {@code ### 2.N Title} heading, with the fields of its table (or of a {@code Fields: a (t), ...}
 * sentence), the fields it inherits through "It has the fields of 2.N except a and b, plus the following", and the
 * enum values the seed says were seen ("value seen: x", "value seen for f: x", "The value seen for f is x").
 */
final class SeedDocument {

    /** JSON kinds the seed uses. */
    enum Kind { BOOLEAN, INTEGER, STRING, OBJECT, ARRAY }

    /**
     * A seed type. {@code subFields} are the inline fields of {@code object {a: t, b: t}};
     * {@code element} is the text after "array of"; {@code text} is the cell as written.
     */
    record SeedType(Kind kind, Map<String, SeedType> subFields, String element, String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** A field; {@code path} is dotted for nested properties ({@code chain_tip.block_height}). */
    record Field(String path, SeedType type, Map<String, String> seenValues) { }

    record Resource(String number, String title, List<Field> fields) {
        @Override
        public String toString() {
            return number + " " + title;
        }
    }

    private static final Pattern SECTION = Pattern.compile("^###\\s+(\\d+\\.\\d+)\\s+(.*)$");
    private static final Pattern INHERIT =
        Pattern.compile("fields of (\\d+\\.\\d+)(?: except (.+?))?, plus the following");
    private static final Pattern PROSE_FIELD = Pattern.compile("([a-z_][a-z0-9_.]*) \\(([^)]*)\\)");
    private static final Pattern NOTE_SEEN =
        Pattern.compile("value seen(?: for ([a-z_][a-z0-9_]*))?: ([A-Za-z0-9_]+)");
    private static final Pattern PROSE_SEEN = Pattern.compile("value seen for ([a-z_][a-z0-9_]*) is ([A-Za-z0-9_]+)");

    private final Map<String, Resource> resources;

    private SeedDocument(Map<String, Resource> resources) {
        this.resources = resources;
    }

    Map<String, Resource> resources() {
        return resources;
    }

    static SeedDocument read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    static SeedDocument parse(List<String> lines) {
        int start = -1;
        int end = lines.size();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).trim();
            if (start < 0 && l.matches("^##\\s+2\\.\\s.*")) {
                start = i + 1;
            } else if (start >= 0 && l.startsWith("## ")) {
                end = i;
                break;
            }
        }
        if (start < 0) {
            throw new IllegalArgumentException("seed has no '## 2.' section");
        }
        Map<String, Resource> out = new LinkedHashMap<>();
        String number = null;
        String title = null;
        List<String> body = new ArrayList<>();
        for (int i = start; i <= end; i++) {
            String l = i < end ? lines.get(i).trim() : null;
            Matcher m = l == null ? null : SECTION.matcher(l);
            if (l == null || m.matches()) {
                if (number != null) {
                    out.put(number, resource(number, title, body, out));
                }
                if (l != null) {
                    number = m.group(1);
                    title = m.group(2).trim();
                    body = new ArrayList<>();
                }
            } else if (number != null) {
                body.add(l);
            }
        }
        return new SeedDocument(out);
    }

    private static Resource resource(String number, String title, List<String> body, Map<String, Resource> earlier) {
        Map<String, Field> fields = new LinkedHashMap<>();
        Map<String, String> proseSeen = new LinkedHashMap<>();
        boolean header = true;
        for (String l : body) {
            if (l.startsWith("|")) {
                List<String> cells = cells(l);
                if (header) {           // the header row
                    header = false;
                    continue;
                }
                if (cells.get(0).matches("-+")) {
                    continue;           // the separator row
                }
                SeedType type = type(cells.get(1));
                Map<String, String> seen = new LinkedHashMap<>();
                if (cells.size() > 2) {
                    Matcher sm = NOTE_SEEN.matcher(cells.get(2));
                    while (sm.find()) {
                        seen.put(sm.group(1) == null ? "" : sm.group(1), sm.group(2));
                    }
                }
                for (String name : cells.get(0).split(",")) {
                    String n = name.trim();
                    putField(fields, n, type, seen);
                }
                continue;
            }
            header = true;
            Matcher im = INHERIT.matcher(l);
            if (im.find()) {
                Resource base = earlier.get(im.group(1));
                if (base == null) {
                    throw new IllegalArgumentException(number + " inherits unknown section " + im.group(1));
                }
                List<String> except = im.group(2) == null ? List.of()
                    : Arrays.stream(im.group(2).split(",|\\band\\b")).map(String::trim).filter(s -> !s.isEmpty())
                        .toList();
                for (Field f : base.fields()) {
                    String top = f.path().split("\\.")[0];
                    if (!except.contains(top)) {
                        fields.put(f.path(), f);
                    }
                }
            }
            if (l.startsWith("Fields:")) {
                Matcher pm = PROSE_FIELD.matcher(l.substring("Fields:".length()));
                while (pm.find()) {
                    putField(fields, pm.group(1), type(pm.group(2)), Map.of());
                }
            }
            Matcher ps = PROSE_SEEN.matcher(l);
            while (ps.find()) {
                proseSeen.put(ps.group(1), ps.group(2));
            }
        }
        // "The value seen for tx_status is success." overrides what an inherited field said.
        proseSeen.forEach((name, value) -> {
            Field f = fields.get(name);
            if (f != null) {
                fields.put(name, new Field(name, f.type(), Map.of("", value)));
            }
        });
        return new Resource(number, title, List.copyOf(fields.values()));
    }

    private static void putField(Map<String, Field> fields, String name, SeedType type, Map<String, String> seen) {
        fields.put(name, new Field(name, type, Map.copyOf(seen)));
    }

    private static List<String> cells(String row) {
        String r = row.trim();
        if (r.startsWith("|")) {
            r = r.substring(1);
        }
        if (r.endsWith("|")) {
            r = r.substring(0, r.length() - 1);
        }
        List<String> out = new ArrayList<>();
        for (String c : r.split("\\|", -1)) {
            out.add(c.trim());
        }
        return out;
    }

    /** Parses a seed type cell: boolean, integer, string, object, object {a: t}, array, array of X, or a resource name. */
    static SeedType type(String text) {
        String t = text.trim();
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.equals("boolean")) {
            return new SeedType(Kind.BOOLEAN, Map.of(), null, t);
        }
        if (lower.equals("integer")) {
            return new SeedType(Kind.INTEGER, Map.of(), null, t);
        }
        if (lower.equals("string")) {
            return new SeedType(Kind.STRING, Map.of(), null, t);
        }
        if (lower.startsWith("array")) {
            String element = lower.startsWith("array of ") ? t.substring("array of ".length()).trim() : null;
            return new SeedType(Kind.ARRAY, Map.of(), element, t);
        }
        if (lower.startsWith("object")) {
            Map<String, SeedType> sub = new LinkedHashMap<>();
            int open = t.indexOf('{');
            int close = t.lastIndexOf('}');
            if (open >= 0 && close > open) {
                for (String part : t.substring(open + 1, close).split(",")) {
                    String[] kv = part.split(":", 2);
                    if (kv.length == 2) {
                        sub.put(kv[0].trim(), type(kv[1]));
                    }
                }
            }
            return new SeedType(Kind.OBJECT, sub, null, t);
        }
        // a reference to another resource by name ("Confirmed transaction"): a JSON object
        return new SeedType(Kind.OBJECT, Map.of(), null, t);
    }
}
