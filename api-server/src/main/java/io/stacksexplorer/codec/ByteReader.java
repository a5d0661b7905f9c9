package io.stacksexplorer.codec;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A big-endian cursor over consensus-serialized bytes. Every read names what it reads so that a
 * truncated or lying input fails with a message a person can act on, and every length prefix is
 * checked against what is left before anything is allocated.
 */
public final class ByteReader {

    private final byte[] data;
    private int position;

    public ByteReader(byte[] data) {
        this.data = data;
    }

    public int offset() {
        return position;
    }

    public int remaining() {
        return data.length - position;
    }

    public boolean atEnd() {
        return position == data.length;
    }

    public int u8(String what) {
        require(1, what);
        return data[position++] & 0xff;
    }

    public int u16(String what) {
        require(2, what);
        int value = ((data[position] & 0xff) << 8) | (data[position + 1] & 0xff);
        position += 2;
        return value;
    }

    public long u32(String what) {
        require(4, what);
        long value = 0;
        for (int i = 0; i < 4; i++) {
            value = (value << 8) | (data[position + i] & 0xff);
        }
        position += 4;
        return value;
    }

    /** Unsigned 64-bit: amounts, fees and nonces may exceed {@link Long#MAX_VALUE} on the wire. */
    public BigInteger u64(String what) {
        return new BigInteger(1, bytes(8, what));
    }

    public byte[] bytes(int count, String what) {
        require(count, what);
        byte[] out = Arrays.copyOfRange(data, position, position + count);
        position += count;
        return out;
    }

    /**
     * A u8-length-prefixed ASCII string: how the wire carries contract, function, asset and tuple field
     * names. Callers apply the name rule that fits the field.
     */
    public String shortAscii(String what) {
        int at = position;
        int length = u8(what + " length");
        byte[] bytes = bytes(length, what);
        for (byte b : bytes) {
            if (b < 0) {
                throw CodecException.at(at, what + " is not ASCII");
            }
        }
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * Validates a declared length (or element count, each element taking at least one byte) against
     * the bytes left, so a forged prefix fails here rather than as an OutOfMemoryError later.
     */
    public int checkedLength(long declared, String what, int lengthFieldOffset) {
        if (declared > remaining()) {
            throw CodecException.at(lengthFieldOffset, what + " declares " + declared
                    + " but only " + remaining() + " bytes remain");
        }
        return (int) declared;
    }

    /** The bytes between two offsets already read, for parts that callers want verbatim. */
    public byte[] slice(int from, int to) {
        return Arrays.copyOfRange(data, from, to);
    }

    public void expectEnd(String what) {
        if (!atEnd()) {
            throw CodecException.at(position, remaining() + " unexpected trailing bytes after " + what);
        }
    }

    private void require(int count, String what) {
        if (count > remaining()) {
            throw CodecException.at(position, "truncated " + what + ": needs " + count
                    + " bytes but only " + remaining() + " remain");
        }
    }
}
