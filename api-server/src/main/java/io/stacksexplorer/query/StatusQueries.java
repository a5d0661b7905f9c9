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
}
