package io.stacksexplorer.write;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A request body exactly as the node sent it, kept (table {@code node_events}) so that everything
 * derived from it can be rebuilt after a decoder fix.
 *
 * @param storedId   the row id when the payload is already stored (rebuild), else null
 * @param path       the observer path, e.g. {@code /new_block}
 * @param receivedAt Unix seconds when it was received (the recorded time during a replay)
 * @param payloadHash SHA-256 of path and body ({@code 0x}-hex) for a payload not stored yet, else null:
 *                   the same delivery twice is stored (and derived) once. Computed when the payload
 *                   is made, so on the thread that reads it, not on the writer's.
 */
public record RawPayload(Long storedId, String path, String body, long receivedAt, String payloadHash) {

    public RawPayload(Long storedId, String path, String body, long receivedAt) {
        this(storedId, path, body, receivedAt, storedId == null ? hash(path, body) : null);
    }

    public static RawPayload received(String path, String body, long receivedAt) {
        return new RawPayload(null, path, body, receivedAt);
    }

    private static String hash(String path, String body) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(path.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
            digest.update(body.getBytes(StandardCharsets.UTF_8));
            return "0x" + HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
