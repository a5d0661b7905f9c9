package io.stacksexplorer.codec;

/** Hex as the Stacks API writes it: lowercase with a {@code 0x} prefix; reading is lenient about prefix and case. */
public final class Hex {

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

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

    private static int digit(String text, int index) {
        int value = Character.digit(text.charAt(index), 16);
        // Character.digit also accepts non-ASCII digits (e.g. fullwidth), which are not hex on the wire.
        if (value < 0 || text.charAt(index) > 'f') {
            throw CodecException.atCharacter(index, "invalid hex character '" + text.charAt(index) + "'");
        }
        return value;
    }
}
