package io.stacksexplorer.codec.clarity;

import io.stacksexplorer.codec.Hex;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Renders values as the Stacks API does. The peer API takes {@code repr} and derived types from
 * hirosystems/stacks-encoding-native-js ({@code src/clarity_value/types.rs}: {@code repr_string} and
 * {@code type_signature}), which follow stacks-core's {@code Display for Value}. Read there, not guessed:
 * <ul>
 * <li>int {@code -5}; uint {@code u150}; buffer {@code 0x...} lowercase ({@code 0x} when empty);
 *     {@code true}/{@code false}; {@code none}; {@code (some X)}, {@code (ok X)}, {@code (err X)}.</li>
 * <li>principals with a leading apostrophe: {@code 'SP...} and {@code 'SP....name}.</li>
 * <li>list: {@code "(list"} then {@code " " + item} per item then {@code ")"}: the empty list is
 *     {@code (list)} with no space (stacks.js's {@code cvToString} would give {@code "(list )"}; the API does not).</li>
 * <li>tuple: {@code (tuple (a u1) (b 0x00))} with fields sorted by name, because the reference keeps
 *     them in a BTreeMap; the node serializes them sorted too, so for chain data this is also wire order.</li>
 * <li>string-ascii: {@code "..."} with each byte through Rust's {@code std::ascii::escape_default}:
 *     {@code \t \r \n \\ \' \"} and {@code \xNN} (lowercase) for anything outside 0x20..0x7e. Not JSON quoting:
 *     the single quote is escaped too.</li>
 * <li>string-utf8: {@code u"..."}; one-byte characters as for string-ascii; every other character as
 *     a backslash, {@code u{...}} holding the hex of its UTF-8 <em>bytes</em>, not its code point
 *     (U+00E9 becomes backslash {@code u{c3a9}}).</li>
 * <li>type signatures: {@code int uint bool principal (buff n) (string-ascii n)}; {@code (string-utf8 4*chars)};
 *     {@code (optional T)} / {@code (optional UnknownType)}; {@code (response T UnknownType)} /
 *     {@code (response UnknownType T)}; {@code (list n T-of-first-item)} / {@code (list 0 UnknownType)};
 *     tuples sorted like repr.</li>
 * </ul>
 */
final class ClarityRepr {

    private static final Comparator<ClarityValue.Tuple.Entry> BY_NAME =
            Comparator.comparing(ClarityValue.Tuple.Entry::name);

    private ClarityRepr() {
    }

    static String repr(ClarityValue value) {
        StringBuilder out = new StringBuilder();
        repr(value, out);
        return out.toString();
    }

    static String typeSignature(ClarityValue value) {
        StringBuilder out = new StringBuilder();
        type(value, out);
        return out.toString();
    }

    private static void repr(ClarityValue value, StringBuilder out) {
        if (value instanceof ClarityValue.Int v) {
            out.append(v.value());
        } else if (value instanceof ClarityValue.UInt v) {
            out.append('u').append(v.value());
        } else if (value instanceof ClarityValue.Buffer v) {
            out.append(Hex.encode(v.bytes()));
        } else if (value instanceof ClarityValue.Bool v) {
            out.append(v.value());
        } else if (value instanceof ClarityValue.StandardPrincipal v) {
            out.append('\'').append(v.address());
        } else if (value instanceof ClarityValue.ContractPrincipal v) {
            out.append('\'').append(v.contract());
        } else if (value instanceof ClarityValue.ResponseOk v) {
            wrapped("(ok ", v.value(), out);
        } else if (value instanceof ClarityValue.ResponseErr v) {
            wrapped("(err ", v.value(), out);
        } else if (value instanceof ClarityValue.OptionalNone) {
            out.append("none");
        } else if (value instanceof ClarityValue.OptionalSome v) {
            wrapped("(some ", v.value(), out);
        } else if (value instanceof ClarityValue.ListValue v) {
            out.append("(list");
            for (ClarityValue item : v.items()) {
                out.append(' ');
                repr(item, out);
            }
            out.append(')');
        } else if (value instanceof ClarityValue.Tuple v) {
            out.append("(tuple");
            for (ClarityValue.Tuple.Entry entry : sorted(v)) {
                out.append(" (").append(entry.name()).append(' ');
                repr(entry.value(), out);
                out.append(')');
            }
            out.append(')');
        } else if (value instanceof ClarityValue.StringAscii v) {
            out.append('"');
            for (int i = 0; i < v.value().length(); i++) {
                escapeDefault(v.value().charAt(i), out);
            }
            out.append('"');
        } else if (value instanceof ClarityValue.StringUtf8 v) {
            out.append("u\"");
            v.value().codePoints().forEach(codePoint -> {
                if (codePoint < 0x80) {
                    escapeDefault(codePoint, out);
                } else {
                    byte[] utf8 = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
                    out.append("\\u{").append(Hex.encodeBare(utf8)).append('}');
                }
            });
            out.append('"');
        }
    }

    private static void wrapped(String open, ClarityValue inner, StringBuilder out) {
        out.append(open);
        repr(inner, out);
        out.append(')');
    }

    /** Rust's {@code std::ascii::escape_default} for one byte. */
    private static void escapeDefault(int b, StringBuilder out) {
        switch (b) {
            case '\t' -> out.append("\\t");
            case '\r' -> out.append("\\r");
            case '\n' -> out.append("\\n");
            case '\\' -> out.append("\\\\");
            case '\'' -> out.append("\\'");
            case '"' -> out.append("\\\"");
            default -> {
                if (b >= 0x20 && b <= 0x7e) {
                    out.append((char) b);
                } else {
                    out.append(String.format("\\x%02x", b));
                }
            }
        }
    }

    private static void type(ClarityValue value, StringBuilder out) {
        if (value instanceof ClarityValue.Int) {
            out.append("int");
        } else if (value instanceof ClarityValue.UInt) {
            out.append("uint");
        } else if (value instanceof ClarityValue.Bool) {
            out.append("bool");
        } else if (value instanceof ClarityValue.StandardPrincipal || value instanceof ClarityValue.ContractPrincipal) {
            out.append("principal");
        } else if (value instanceof ClarityValue.Buffer v) {
            out.append("(buff ").append(v.length()).append(')');
        } else if (value instanceof ClarityValue.OptionalNone) {
            out.append("(optional UnknownType)");
        } else if (value instanceof ClarityValue.OptionalSome v) {
            out.append("(optional ");
            type(v.value(), out);
            out.append(')');
        } else if (value instanceof ClarityValue.ResponseOk v) {
            out.append("(response ");
            type(v.value(), out);
            out.append(" UnknownType)");
        } else if (value instanceof ClarityValue.ResponseErr v) {
            out.append("(response UnknownType ");
            type(v.value(), out);
            out.append(')');
        } else if (value instanceof ClarityValue.ListValue v) {
            out.append("(list ").append(v.items().size()).append(' ');
            if (v.items().isEmpty()) {
                out.append("UnknownType");
            } else {
                type(v.items().get(0), out);
            }
            out.append(')');
        } else if (value instanceof ClarityValue.Tuple v) {
            out.append("(tuple");
            for (ClarityValue.Tuple.Entry entry : sorted(v)) {
                out.append(" (").append(entry.name()).append(' ');
                type(entry.value(), out);
                out.append(')');
            }
            out.append(')');
        } else if (value instanceof ClarityValue.StringAscii v) {
            out.append("(string-ascii ").append(v.value().length()).append(')');
        } else if (value instanceof ClarityValue.StringUtf8 v) {
            out.append("(string-utf8 ").append(v.value().codePointCount(0, v.value().length()) * 4L).append(')');
        }
    }

    private static List<ClarityValue.Tuple.Entry> sorted(ClarityValue.Tuple tuple) {
        List<ClarityValue.Tuple.Entry> entries = new ArrayList<>(tuple.entries());
        entries.sort(BY_NAME);
        return entries;
    }
}
