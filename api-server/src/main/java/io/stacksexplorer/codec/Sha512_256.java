package io.stacksexplorer.codec;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-512/256 (FIPS 180-4, its own initial values, not a truncated SHA-512): the hash behind Stacks
 * transaction ids and block hashes.
 */
public final class Sha512_256 {

    private Sha512_256() {
    }

    public static byte[] hash(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-512/256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            // Every Java 9+ runtime must provide it; its absence is a broken JDK, not bad input.
            throw new IllegalStateException("JDK lacks SHA-512/256", e);
        }
    }

    /** The transaction id of raw transaction bytes, as {@code 0x}-hex. */
    public static String txId(byte[] rawTransaction) {
        return Hex.encode(hash(rawTransaction));
    }
}
