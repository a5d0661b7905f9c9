package io.stacksexplorer.codec.address;

import io.stacksexplorer.codec.ByteReader;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import java.util.Arrays;

/**
 * A standard principal: c32check version (0..31) and a 20-byte hash160. Immutable: the hash is copied in and out.
 */
public record StacksAddress(int version, byte[] hash160) implements Principal {

    public static final int MAINNET_SINGLE_SIG = 22;
    public static final int MAINNET_MULTI_SIG = 20;
    public static final int TESTNET_SINGLE_SIG = 26;
    public static final int TESTNET_MULTI_SIG = 21;

    public static final int HASH_LENGTH = 20;

    public StacksAddress {
        C32.requireVersion(version);
        if (hash160 == null || hash160.length != HASH_LENGTH) {
            throw new CodecException("an address hash must be " + HASH_LENGTH + " bytes, got "
                    + (hash160 == null ? "none" : hash160.length));
        }
        hash160 = hash160.clone();
    }

    /**
     * Parses a c32 address with the node's normalisation ({@code sp...} and O/I/L look-alikes accepted) and a
     * verified checksum.
     */
    public static StacksAddress parse(String text) {
        if (text == null) {
            throw new CodecException("address is null");
        }
        // The node's c32_address_decode also refuses anything of 5 characters or fewer.
        if (text.length() <= 5 || Character.toUpperCase(text.charAt(0)) != 'S') {
            throw new CodecException("'" + text + "' is not a Stacks address (must start with 'S')");
        }
        C32.Decoded decoded;
        try {
            decoded = C32.checkDecode(text.substring(1));
        } catch (CodecException e) {
            throw new CodecException("invalid Stacks address '" + text + "': " + e.getMessage());
        }
        byte[] hash = decoded.data();
        if (hash.length != HASH_LENGTH) {
            throw new CodecException("invalid Stacks address '" + text + "': hash is " + hash.length
                    + " bytes, not " + HASH_LENGTH);
        }
        return new StacksAddress(decoded.version(), hash);
    }

    /** Reads the 21-byte wire form: version byte then hash160. */
    public static StacksAddress read(ByteReader reader) {
        int at = reader.offset();
        int version = reader.u8("address version");
        byte[] hash = reader.bytes(HASH_LENGTH, "address hash160");
        if (version >= C32.ALPHABET.length()) {
            throw CodecException.at(at, "address version " + version + " is not a c32 version (0..31)");
        }
        return new StacksAddress(version, hash);
    }

    @Override
    public byte[] hash160() {
        return hash160.clone();
    }

    public String hash160Hex() {
        return Hex.encode(hash160);
    }

    @Override
    public StacksAddress address() {
        return this;
    }

    public boolean isMainnet() {
        return version == MAINNET_SINGLE_SIG || version == MAINNET_MULTI_SIG;
    }

    public boolean isTestnet() {
        return version == TESTNET_SINGLE_SIG || version == TESTNET_MULTI_SIG;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StacksAddress that && version == that.version && Arrays.equals(hash160, that.hash160);
    }

    @Override
    public int hashCode() {
        return 31 * version + Arrays.hashCode(hash160);
    }

    /** The c32 form, e.g. {@code SP000000000000000000002Q6VF78}. */
    @Override
    public String toString() {
        return "S" + C32.checkEncode(version, hash160);
    }
}
