package io.stacksexplorer.web;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.query.PagePosition;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * The opaque {@code cursor} / {@code next_cursor} strings of the two position-numbered lists:
 * base64url of (version, list kind, position, transaction id, event index) followed by a
 * checksum over those bytes and the list they belong to (the address or the contract id). The
 * checksum is no secret; it makes a mistyped cursor, or one taken from another address's or
 * contract's walk, a {@code 400} instead of a silently wrong page.
 */
final class PageCursors {

    /** Which list a cursor walks. */
    enum Kind {
        ADDRESS_TRANSACTIONS((byte) 'a'), CONTRACT_EVENTS((byte) 'c');

        final byte tag;

        Kind(byte tag) {
            this.tag = tag;
        }
    }

    private static final byte VERSION = 1;
    private static final int BODY = 1 + 1 + 8 + 32 + 4;
    private static final int CHECK = 8;

    private PageCursors() {
    }

    static String encode(Kind kind, String list, PagePosition at) {
        ByteBuffer body = ByteBuffer.allocate(BODY + CHECK);
        body.put(VERSION).put(kind.tag).putLong(at.position()).put(Hex.decode(at.txId())).putInt(at.eventIndex());
        body.put(check(list, Arrays.copyOf(body.array(), BODY)));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(body.array());
    }

    /** The position a cursor holds; a {@code 400} problem naming {@code cursor} when it is not one of ours. */
    static PagePosition decode(Kind kind, String list, String cursor) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw ApiProblems.badParameter("cursor", "cursor is not a next_cursor value of this API");
        }
        if (bytes.length != BODY + CHECK || bytes[0] != VERSION) {
            throw ApiProblems.badParameter("cursor", "cursor is not a next_cursor value of this API");
        }
        byte[] body = Arrays.copyOf(bytes, BODY);
        if (bytes[1] != kind.tag
                || !MessageDigest.isEqual(check(list, body), Arrays.copyOfRange(bytes, BODY, BODY + CHECK))) {
            throw ApiProblems.badParameter("cursor", "cursor belongs to another list: continue a walk with the"
                    + " next_cursor of the same " + (kind == Kind.ADDRESS_TRANSACTIONS ? "address" : "contract"));
        }
        ByteBuffer in = ByteBuffer.wrap(body, 2, BODY - 2);
        long position = in.getLong();
        byte[] txId = new byte[32];
        in.get(txId);
        int eventIndex = in.getInt();
        if (position < 1 || eventIndex < 0) {
            throw ApiProblems.badParameter("cursor", "cursor is not a next_cursor value of this API");
        }
        return new PagePosition(position, Hex.encode(txId), eventIndex);
    }

    /** The cursor, when no offset other than 0 comes with it (a cursor already says where the page starts). */
    static String withoutOffset(String cursor, Integer offset) {
        if (offset != null && offset != 0) {
            throw ApiProblems.badParameter("offset", "offset must be 0 when a cursor is given");
        }
        return cursor;
    }

    private static byte[] check(String list, byte[] body) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(list.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(body);
            return Arrays.copyOf(sha.digest(), CHECK);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
