package io.stacksexplorer.query;

import jakarta.inject.Singleton;

/** Read facade for the chain tip and network facts. */
@Singleton
public class StatusQueries {

    private final DirectReads reads;

    StatusQueries(DirectReads reads) {
        this.reads = reads;
    }

    public ChainStateRow chainState() {
        return reads.chainState();
    }

    /**
     * Blocks the node delivered that the database cannot place because their parent is missing (a
     * gap: see the write path's ChainWriter.writeBlock). A plain read, so a reader on a standby sees
     * its writer's gap too.
     */
    public BlocksWaiting blocksWaitingForParent() {
        return reads.blocksWaitingForParent();
    }
}
