package io.stacksexplorer.query;

/**
 * Delivered blocks kept but not served because their parent is not stored.
 *
 * @param count       how many; 0 on a database that holds everything the node delivered
 * @param firstParent the parent the earliest of them waits for, or null when none waits
 */
public record BlocksWaiting(long count, String firstParent) {
}
