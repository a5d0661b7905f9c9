package io.stacksexplorer.query;

/**
 * Where a page walk stands: the last row returned, by its position in the list (see migration
 * V10) and its identity. The next page starts just below it. The identity lets a walk follow the
 * row when a reorg renumbered the newest rows; the position is the fallback when that row left
 * the canonical chain.
 *
 * @param position   the row's position (1 = oldest)
 * @param txId       its transaction
 * @param eventIndex its event index within the transaction (contract logs), else 0
 */
public record PagePosition(long position, String txId, int eventIndex) {
}
