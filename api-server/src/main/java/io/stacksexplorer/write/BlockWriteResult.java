package io.stacksexplorer.write;

import java.util.List;

/**
 * What writing one block did.
 *
 * @param alreadyStored true when the block was stored before and nothing changed (a replay)
 * @param orphaned      index block hashes that left the canonical chain because of this block
 * @param restored      index block hashes that rejoined the canonical chain because of this block
 */
public record BlockWriteResult(boolean alreadyStored, List<String> orphaned, List<String> restored) {

    static BlockWriteResult unchanged() {
        return new BlockWriteResult(true, List.of(), List.of());
    }

    public boolean reorg() {
        return !orphaned.isEmpty() || !restored.isEmpty();
    }
}
