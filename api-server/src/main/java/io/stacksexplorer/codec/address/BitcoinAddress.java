package io.stacksexplorer.codec.address;

import io.stacksexplorer.codec.CodecException;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Locale;

/**
 * A Bitcoin address as PoX names it: the {@code version} byte and {@code hashbytes} of the
 * {@code pox-addr} tuple. A node sends the reward address of a Bitcoin-originated {@code stack-stx} or
 * {@code delegate-stx} as Bitcoin text (base58check for p2pkh and p2sh, BIP-173 bech32 / BIP-350 bech32m
 * for segwit), and the transaction the API serves names it as that tuple.
 *
 * <p>Hand-written (some 100 lines) rather than a Bitcoin library for two decoders and no network access
 * or keys; checked against the BIPs' test vectors ({@code BitcoinAddressTest}).
 *
 * @param version   PoX's address version: 0x00 p2pkh, 0x01 p2sh, 0x04 p2wpkh, 0x05 p2wsh, 0x06 p2tr
 * @param hashBytes the 20-byte hash (p2pkh, p2sh, p2wpkh) or 32-byte program (p2wsh, p2tr)
 */
public record BitcoinAddress(int version, byte[] hashBytes) {

    public static final int P2PKH = 0x00;
    public static final int P2SH = 0x01;
    public static final int P2WPKH = 0x04;
    public static final int P2WSH = 0x05;
    public static final int P2TR = 0x06;

    private static final String BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    private static final String BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    private static final int BECH32_CONST = 1;
    private static final int BECH32M_CONST = 0x2bc830a3;

    public BitcoinAddress {
        hashBytes = hashBytes.clone();
    }

    @Override
    public byte[] hashBytes() {
        return hashBytes.clone();
    }

    /** Reads mainnet, testnet and regtest addresses of every standard kind. */
    public static BitcoinAddress parse(String text) {
        int separator = text.lastIndexOf('1');
        String lower = text.toLowerCase(Locale.ROOT);
        if (separator > 0 && (lower.startsWith("bc1") || lower.startsWith("tb1") || lower.startsWith("bcrt1"))) {
            return segwit(lower, separator);
        }
        return base58(text);
    }

    private static BitcoinAddress base58(String text) {
        BigInteger value = BigInteger.ZERO;
        for (int i = 0; i < text.length(); i++) {
            int digit = BASE58.indexOf(text.charAt(i));
            if (digit < 0) {
                throw CodecException.atCharacter(i, "not a base58 character");
            }
            value = value.multiply(BigInteger.valueOf(58)).add(BigInteger.valueOf(digit));
        }
        byte[] number = value.toByteArray();
        int sign = number.length > 1 && number[0] == 0 ? 1 : 0;
        int zeros = 0;
        while (zeros < text.length() && text.charAt(zeros) == '1') {
            zeros++;
        }
        byte[] bytes = new byte[zeros + number.length - sign];
        System.arraycopy(number, sign, bytes, zeros, number.length - sign);
        if (bytes.length != 25) {
            throw new CodecException("a base58 address has 25 bytes, this one " + bytes.length);
        }
        byte[] check = sha256(sha256(Arrays.copyOfRange(bytes, 0, 21)));
        if (!Arrays.equals(Arrays.copyOfRange(check, 0, 4), Arrays.copyOfRange(bytes, 21, 25))) {
            throw new CodecException("base58check checksum mismatch");
        }
        int kind = switch (bytes[0] & 0xff) {
            case 0x00, 0x6f -> P2PKH;
            case 0x05, 0xc4 -> P2SH;
            default -> throw new CodecException(String.format("unknown base58 address version 0x%02x", bytes[0] & 0xff));
        };
        return new BitcoinAddress(kind, Arrays.copyOfRange(bytes, 1, 21));
    }

    private static BitcoinAddress segwit(String text, int separator) {
        int[] data = new int[text.length() - separator - 1];
        for (int i = 0; i < data.length; i++) {
            data[i] = BECH32.indexOf(text.charAt(separator + 1 + i));
            if (data[i] < 0) {
                throw CodecException.atCharacter(separator + 1 + i, "not a bech32 character");
            }
        }
        if (data.length < 7) {
            throw new CodecException("bech32 address too short");
        }
        int checksum = polymod(text.substring(0, separator), data);
        int witnessVersion = data[0];
        if (checksum != (witnessVersion == 0 ? BECH32_CONST : BECH32M_CONST)) {
            throw new CodecException("bech32 checksum mismatch");
        }
        byte[] program = fromFiveBits(Arrays.copyOfRange(data, 1, data.length - 6));
        if (witnessVersion == 0 && program.length == 20) {
            return new BitcoinAddress(P2WPKH, program);
        } else if (witnessVersion == 0 && program.length == 32) {
            return new BitcoinAddress(P2WSH, program);
        } else if (witnessVersion == 1 && program.length == 32) {
            return new BitcoinAddress(P2TR, program);
        }
        throw new CodecException("witness version " + witnessVersion + " with a " + program.length
                + "-byte program has no PoX address version");
    }

    private static int polymod(String hrp, int[] data) {
        int[] generator = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
        int chk = 1;
        int[] values = new int[hrp.length() * 2 + 1 + data.length];
        int n = 0;
        for (char c : hrp.toCharArray()) {
            values[n++] = c >> 5;
        }
        values[n++] = 0;
        for (char c : hrp.toCharArray()) {
            values[n++] = c & 31;
        }
        System.arraycopy(data, 0, values, n, data.length);
        for (int v : values) {
            int top = chk >>> 25;
            chk = (chk & 0x1ffffff) << 5 ^ v;
            for (int i = 0; i < 5; i++) {
                if (((top >>> i) & 1) != 0) {
                    chk ^= generator[i];
                }
            }
        }
        return chk;
    }

    private static byte[] fromFiveBits(int[] groups) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int acc = 0;
        int bits = 0;
        for (int value : groups) {
            acc = acc << 5 | value;
            bits += 5;
            if (bits >= 8) {
                bits -= 8;
                out.write(acc >>> bits & 0xff);
            }
        }
        if (bits >= 5 || (acc & (1 << bits) - 1) != 0) {
            throw new CodecException("bech32 program has non-zero padding");
        }
        return out.toByteArray();
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
