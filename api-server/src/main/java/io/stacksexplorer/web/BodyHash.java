package io.stacksexplorer.web;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.HexFormat;

/**
 * MurmurHash3 x64 128-bit (seed 0) of a response body, as 32 lowercase hex digits: the ETag. An ETag
 * needs to change whenever the body does, not to resist an adversary (a client can only ever make
 * the server render bodies of the chain), and 128 bits make an accidental collision between two
 * answers of one URL negligible. SHA-256 over the whole body was 9 % of an address page's CPU time
 * and 29 % of a 20-id lookup's; MurmurHash3 is about ten times cheaper.
 *
 * <p>The same function as Apache Commons Codec's {@code MurmurHash3.hash128x64} (BodyHashTest
 * compares them), so tags are unchanged, but each 8-byte block is read as one little-endian long
 * instead of eight bytes: on a 31 KB address page that is 6 instead of 14-20 µs per request.
 */
final class BodyHash {

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private BodyHash() {
    }

    static String hex(byte[] data) {
        long[] hash = hash128x64(data);
        return HexFormat.of().toHexDigits(hash[0]) + HexFormat.of().toHexDigits(hash[1]);
    }

    static long[] hash128x64(byte[] data) {
        int length = data.length;
        long h1 = 0;
        long h2 = 0;
        int blocks = length >> 4;
        for (int i = 0; i < blocks; i++) {
            int at = i << 4;
            h1 ^= mixK1((long) LONG_LE.get(data, at));
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2((long) LONG_LE.get(data, at + 8));
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int at = blocks << 4;
        long k1 = 0;
        long k2 = 0;
        switch (length - at) { // the tail, falling through from its last byte down
            case 15: k2 ^= (data[at + 14] & 0xffL) << 48;
            case 14: k2 ^= (data[at + 13] & 0xffL) << 40;
            case 13: k2 ^= (data[at + 12] & 0xffL) << 32;
            case 12: k2 ^= (data[at + 11] & 0xffL) << 24;
            case 11: k2 ^= (data[at + 10] & 0xffL) << 16;
            case 10: k2 ^= (data[at + 9] & 0xffL) << 8;
            case 9:
                k2 ^= data[at + 8] & 0xffL;
                h2 ^= mixK2(k2);
            case 8: k1 ^= (data[at + 7] & 0xffL) << 56;
            case 7: k1 ^= (data[at + 6] & 0xffL) << 48;
            case 6: k1 ^= (data[at + 5] & 0xffL) << 40;
            case 5: k1 ^= (data[at + 4] & 0xffL) << 32;
            case 4: k1 ^= (data[at + 3] & 0xffL) << 24;
            case 3: k1 ^= (data[at + 2] & 0xffL) << 16;
            case 2: k1 ^= (data[at + 1] & 0xffL) << 8;
            case 1:
                k1 ^= data[at] & 0xffL;
                h1 ^= mixK1(k1);
            default:
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    private static long mixK1(long k1) {
        return Long.rotateLeft(k1 * C1, 31) * C2;
    }

    private static long mixK2(long k2) {
        return Long.rotateLeft(k2 * C2, 33) * C1;
    }

    private static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
