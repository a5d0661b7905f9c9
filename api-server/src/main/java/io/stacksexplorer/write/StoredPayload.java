package io.stacksexplorer.write;

/** A stored node payload, in arrival order ({@code id}). */
public record StoredPayload(long id, String path, String body, long receivedAt) {

    public RawPayload asRaw() {
        return new RawPayload(id, path, body, receivedAt);
    }
}
