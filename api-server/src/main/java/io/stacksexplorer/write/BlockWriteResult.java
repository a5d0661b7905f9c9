package io.stacksexplorer.write;

import java.util.List;

/**
 * What writing one block did.
 *
 * @param alreadyStored true when the block was stored before and nothing changed (a replay)
 * @param orphaned      index block hashes that left the canonical chain because of this block
 * @param restored      index block hashes that rejoined the canonical chain because of this block
 * @param waitingForParent true when the block's parent is not stored: the block is kept (its raw
 *                      payload, marked with the parent it waits for) and written when the parent
 *                      arrives; nothing that is served changed
 */
public record BlockWriteResult(boolean alreadyStored, List<String> orphaned, List<String> restored,
                               boolean waitingForParent) {

    BlockWriteResult(boolean alreadyStored, List<String> orphaned, List<String> restored) {
        this(alreadyStored, orphaned, restored, false);
    }

    static BlockWriteResult unchanged() {
        return new BlockWriteResult(true, List.of(), List.of());
    }

    static BlockWriteResult waiting() {
        return new BlockWriteResult(false, List.of(), List.of(), true);
    }

    public boolean reorg() {
        return !orphaned.isEmpty() || !restored.isEmpty();
    }
}
