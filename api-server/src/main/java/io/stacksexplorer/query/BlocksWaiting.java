package io.stacksexplorer.query;

/**
 * Delivered payloads kept but not served because the block they build on is not stored.
 *
 * @param count                      blocks whose parent is missing; 0 on a database that holds
 *                                   everything the node delivered
 * @param firstParent                the parent the earliest of them waits for, or null when none waits
 * @param microblocksWaitingForAnchor microblock streams whose parent block is not stored: normal for
 *                                   a moment (a node may send a stream before its block), a gap when
 *                                   it stays
 */
public record BlocksWaiting(long count, String firstParent, long microblocksWaitingForAnchor) {
}
