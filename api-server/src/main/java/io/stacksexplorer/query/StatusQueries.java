package io.stacksexplorer.query;

import jakarta.inject.Singleton;

/** Read facade for the chain tip and network facts. */
@Singleton
public class StatusQueries {

    private final StatusStore status;

    StatusQueries(StatusStore status) {
        this.status = status;
    }

    public ChainStateRow chainState() {
        return status.chainState();
    }

    /**
     * Blocks the node delivered that the database cannot place because their parent is missing (a
     * gap: see the write path's ChainWriter.writeBlock). A plain read, so a reader on a standby sees
     * its writer's gap too.
     */
    public BlocksWaiting blocksWaitingForParent() {
        return status.blocksWaitingForParent();
    }

    /** Transactions held because the build that stored their blocks could not read them (a plain read). */
    public HeldTransactions heldTransactions() {
        return status.heldTransactions();
    }
}
