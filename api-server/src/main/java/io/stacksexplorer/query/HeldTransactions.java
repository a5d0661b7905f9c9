package io.stacksexplorer.query;

/**
 * Transactions of stored blocks that are held, not served, because the build that stored them could not
 * read them (newer wire features than its decoder); a {@code rebuild} with a build that reads them serves
 * them.
 *
 * @param count       how many; 0 while the build reads everything the node sends
 * @param firstTxId   the lowest one's id, or {@code null} when none is held
 * @param firstHeight its block's height
 * @param firstReason what the build could not read in it
 */
public record HeldTransactions(long count, String firstTxId, long firstHeight, String firstReason) {
}
