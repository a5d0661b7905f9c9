package io.stacksexplorer.codec;

/** Hex as the Stacks API writes it: lowercase with a {@code 0x} prefix; reading is lenient about prefix and case. */
public final class Hex {

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();
    /**
     * The value of each ASCII hex digit, -1 for any other ASCII character; {@link #LOWER} the
     * lowercase ones. Tables, not comparisons: in a hex string digits and letters alternate at
     * random, so a chain of range comparisons mispredicted its branches, and checking and decoding
     * every {@code raw_tx} were a seventh of a replay's reading thread (docs/performance.md).
     */
    private static final byte[] VALUE = new byte[128];
    private static final boolean[] LOWER = new boolean[128];

    static {
        java.util.Arrays.fill(VALUE, (byte) -1);
        for (int i = 0; i < 16; i++) {
            VALUE[DIGITS[i]] = (byte) i;
            VALUE[Character.toUpperCase(DIGITS[i])] = (byte) i;
            LOWER[DIGITS[i]] = true;
        }
    }

    private Hex() {
    }

    /** {@code 0x}-prefixed lowercase hex; an empty array gives {@code "0x"}. */
    public static String encode(byte[] bytes) {
        return "0x" + encodeBare(bytes);
    }

    /** Lowercase hex without prefix. */
    public static String encodeBare(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    /**
     * Decodes hex with or without a {@code 0x}/{@code 0X} prefix, in any case.
     *
     * @throws CodecException on odd length or a non-hex character (offset = character index in {@code text})
     */
    public static byte[] decode(String text) {
        if (text == null) {
            throw new CodecException("hex string is null");
        }
        int start = text.startsWith("0x") || text.startsWith("0X") ? 2 : 0;
        int digits = text.length() - start;
        if (digits % 2 != 0) {
            throw new CodecException("hex string has an odd number of digits (" + digits + ")");
        }
        byte[] out = new byte[digits / 2];
        for (int i = 0; i < out.length; i++) {
            int at = start + 2 * i;
            out[i] = (byte) ((digit(text, at) << 4) | digit(text, at + 1));
        }
        return out;
    }

    /** Whether every character of {@code text} from {@code from} on is a lowercase hex digit. */
    public static boolean isLowerHex(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 128 || !LOWER[c]) {
                return false;
            }
        }
        return true;
    }

    private static int digit(String text, int index) {
        char c = text.charAt(index);
        // ASCII only: non-ASCII digits (e.g. fullwidth) are not hex on the wire.
        int value = c < 128 ? VALUE[c] : -1;
        if (value < 0) {
            throw CodecException.atCharacter(index, "invalid hex character '" + c + "'");
        }
        return value;
    }
}
