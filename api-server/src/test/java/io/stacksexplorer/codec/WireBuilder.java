package io.stacksexplorer.codec;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/** Builds hand-made test vectors field by field, so each test shows the wire layout it exercises. */
public final class WireBuilder {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public static WireBuilder wire() {
        return new WireBuilder();
    }

    public WireBuilder u8(int value) {
        out.write(value);
        return this;
    }

    public WireBuilder u16(int value) {
        return u8(value >>> 8).u8(value);
    }

    public WireBuilder u32(long value) {
        return u8((int) (value >>> 24)).u8((int) (value >>> 16)).u8((int) (value >>> 8)).u8((int) value);
    }

    public WireBuilder u64(long value) {
        return u32(value >>> 32).u32(value);
    }

    public WireBuilder u64(BigInteger value) {
        return u64(value.longValue());
    }

    public WireBuilder bytes(byte[] bytes) {
        out.write(bytes, 0, bytes.length);
        return this;
    }

    public WireBuilder hex(String hex) {
        return bytes(Hex.decode(hex));
    }

    /** {@code count} copies of {@code value}. */
    public WireBuilder fill(int count, int value) {
        for (int i = 0; i < count; i++) {
            out.write(value);
        }
        return this;
    }

    /** u8 length then ASCII, as names travel. */
    public WireBuilder name(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        return u8(bytes.length).bytes(bytes);
    }

    /** u32 length then bytes, as buffers, strings and contract source travel. */
    public WireBuilder sized(byte[] bytes) {
        return u32(bytes.length).bytes(bytes);
    }

    public byte[] build() {
        return out.toByteArray();
    }

    public String buildHex() {
        return Hex.encode(build());
    }
}
