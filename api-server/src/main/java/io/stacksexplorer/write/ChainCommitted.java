package io.stacksexplorer.write;

/**
 * Published by {@link ChainWriter} right after each of its database transactions ends, committed or
 * failed (a failed commit may still have taken effect), before the writer returns: what this process
 * serves may have changed. Listeners run on the writing thread, so a delivery the event observer
 * answers 200 has already been announced (the answer cache, {@code ops.CommitWatch}, relies on it).
 */
public record ChainCommitted() {

    /** The one instance: the event carries no data, only the moment. */
    public static final ChainCommitted INSTANCE = new ChainCommitted();
}
