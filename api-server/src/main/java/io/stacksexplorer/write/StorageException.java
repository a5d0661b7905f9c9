package io.stacksexplorer.write;

/** The database refused or failed a statement; the surrounding transaction is rolled back. */
public class StorageException extends RuntimeException {
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
