package io.stacksexplorer.codec.address;

import io.stacksexplorer.codec.CodecException;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Crockford-style base-32 ("c32") and c32check, bit for bit as stacks-core {@code stacks-common/src/address/c32.rs}.
 *
 * <p>c32 is a big-number conversion, not a 5-bit chunking: high-order zero digits are dropped and every
 * leading zero <em>byte</em> becomes exactly one {@code '0'} character (and back), so 20 zero bytes
 * encode as twenty {@code '0'}s.
 */
public final class C32 {

    public static final String ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    private static final int CHECKSUM_LENGTH = 4;

    private C32() {
    }

    public static String encode(byte[] data) {
        StringBuilder reversed = new StringBuilder(data.length * 8 / 5 + 2);
        int carry = 0;
        int carryBits = 0;
        for (int i = data.length - 1; i >= 0; i--) {
            carry |= (data[i] & 0xff) << carryBits;
            carryBits += 8;
            while (carryBits >= 5) {
                reversed.append(ALPHABET.charAt(carry & 31));
                carry >>>= 5;
                carryBits -= 5;
            }
        }
        if (carryBits > 0) {
            reversed.append(ALPHABET.charAt(carry & 31));
        }
        int length = reversed.length();
        while (length > 0 && reversed.charAt(length - 1) == '0') {
            length--;
        }
        reversed.setLength(length);
        for (int i = 0; i < data.length && data[i] == 0; i++) {
            reversed.append('0');
        }
        return reversed.reverse().toString();
    }

    /**
     * Decodes c32 after the node's normalisation (lowercase accepted, {@code O}->0, {@code I}/{@code L}->1).
     *
     * @throws CodecException on any other character (offset = character index)
     */
    public static byte[] decode(String text) {
        int[] digits = new int[text.length()];
        for (int i = 0; i < digits.length; i++) {
            digits[i] = digitValue(text.charAt(i), i);
        }
        ByteArrayOutputStream reversed = new ByteArrayOutputStream(digits.length * 5 / 8 + 1);
        int carry = 0;
        int carryBits = 0;
        for (int i = digits.length - 1; i >= 0; i--) {
            carry |= digits[i] << carryBits;
            carryBits += 5;
            if (carryBits >= 8) {
                reversed.write(carry & 0xff);
                carry >>>= 8;
                carryBits -= 8;
            }
        }
        if (carryBits > 0) {
            reversed.write(carry);
        }
        byte[] bytes = reversed.toByteArray();
        int length = bytes.length;
        while (length > 0 && bytes[length - 1] == 0) {
            length--;
        }
        int leadingZeroDigits = 0;
        while (leadingZeroDigits < digits.length && digits[leadingZeroDigits] == 0) {
            leadingZeroDigits++;
        }
        byte[] out = new byte[length + leadingZeroDigits];
        for (int i = 0; i < length; i++) {
            out[out.length - 1 - i] = bytes[i];
        }
        return out;
    }

    /** Version character followed by c32(data || first 4 bytes of sha256(sha256(version || data))). */
    public static String checkEncode(int version, byte[] data) {
        requireVersion(version);
        byte[] checksum = checksum(version, data);
        byte[] payload = Arrays.copyOf(data, data.length + CHECKSUM_LENGTH);
        System.arraycopy(checksum, 0, payload, data.length, CHECKSUM_LENGTH);
        return ALPHABET.charAt(version) + encode(payload);
    }

    /** The inverse of {@link #checkEncode}; rejects a wrong checksum. */
    public static Decoded checkDecode(String text) {
        if (text.length() < 2) {
            throw new CodecException("c32check string '" + text + "' is too short");
        }
        int version = digitValue(text.charAt(0), 0);
        byte[] payload;
        try {
            payload = decode(text.substring(1));
        } catch (CodecException e) {
            throw CodecException.atCharacter(e.offset() + 1, "invalid c32 character '" + text.charAt(e.offset() + 1) + "'");
        }
        if (payload.length < CHECKSUM_LENGTH) {
            throw new CodecException("c32check string '" + text + "' is too short to hold a checksum");
        }
        byte[] data = Arrays.copyOf(payload, payload.length - CHECKSUM_LENGTH);
        byte[] given = Arrays.copyOfRange(payload, data.length, payload.length);
        if (!MessageDigest.isEqual(given, checksum(version, data))) {
            throw new CodecException("c32check checksum mismatch in '" + text + "'");
        }
        return new Decoded(version, data);
    }

    /** A c32check payload: the version (0..31) and the data bytes. */
    public record Decoded(int version, byte[] data) {
        public Decoded {
            data = data.clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }
    }

    static void requireVersion(int version) {
        if (version < 0 || version >= ALPHABET.length()) {
            throw new CodecException("c32 version " + version + " is outside 0..31");
        }
    }

    private static int digitValue(char c, int index) {
        char normalized = Character.toUpperCase(c);
        if (normalized == 'O') {
            normalized = '0';
        } else if (normalized == 'I' || normalized == 'L') {
            normalized = '1';
        }
        int value = normalized < 128 ? ALPHABET.indexOf(normalized) : -1;
        if (value < 0) {
            throw CodecException.atCharacter(index, "invalid c32 character '" + c + "'");
        }
        return value;
    }

    private static byte[] checksum(int version, byte[] data) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update((byte) version);
            sha256.update(data);
            byte[] once = sha256.digest();
            return Arrays.copyOf(sha256.digest(once), CHECKSUM_LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("JDK lacks SHA-256", e);
        }
    }
}
