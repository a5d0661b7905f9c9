package io.stacksexplorer.query;

/**
 * A row's place in chain order, the key the peer's v3 cursors spell out: block height, microblock
 * sequence (2147483647 for an anchored transaction), transaction index and, for log events, the
 * event's index in its transaction (0 for transactions).
 */
public record ChainKey(long blockHeight, int microblockSequence, int txIndex, int eventIndex)
        implements Comparable<ChainKey> {

    /** Above every transaction of block {@code height}: the peer's reading of {@code H:0:0} when that names no row. */
    public static ChainKey topOfBlock(long height) {
        return new ChainKey(height, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    @Override
    public int compareTo(ChainKey other) {
        int c = Long.compare(blockHeight, other.blockHeight);
        if (c == 0) {
            c = Integer.compare(microblockSequence, other.microblockSequence);
        }
        if (c == 0) {
            c = Integer.compare(txIndex, other.txIndex);
        }
        return c != 0 ? c : Integer.compare(eventIndex, other.eventIndex);
    }
}
