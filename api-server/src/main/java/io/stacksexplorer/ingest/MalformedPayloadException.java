package io.stacksexplorer.ingest;

/** A node payload that cannot be understood: answered 400 with the reason, nothing written. */
public class MalformedPayloadException extends RuntimeException {

    public MalformedPayloadException(String message, Throwable cause) {
        super(message, cause);
    }

    public MalformedPayloadException(String message) {
        super(message);
    }
}
