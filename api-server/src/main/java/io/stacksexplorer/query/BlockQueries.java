package io.stacksexplorer.query;

import jakarta.inject.Singleton;

import java.util.Optional;

/** Read facade for blocks. */
@Singleton
public class BlockQueries {

    private final DirectReads reads;

    BlockQueries(DirectReads reads) {
        this.reads = reads;
    }

    public Optional<BlockRow> latest() {
        return reads.latestBlock();
    }

    public Optional<BlockRow> byHeight(long height) {
        return reads.blockAtHeight(height);
    }

    /** {@code hash} normalised: lowercase with {@code 0x}. */
    public Optional<BlockRow> byHash(String hash) {
        return reads.blockByHash(hash);
    }
}
