package io.stacksexplorer.query;

import jakarta.inject.Singleton;

import java.util.Optional;

/** Read facade for blocks. */
@Singleton
public class BlockQueries {

    private final BlockStore blocks;

    BlockQueries(BlockStore blocks) {
        this.blocks = blocks;
    }

    public Optional<BlockRow> latest() {
        return blocks.latestBlock();
    }

    public Optional<BlockRow> byHeight(long height) {
        return blocks.blockAtHeight(height);
    }

    /** {@code hash} normalised: lowercase with {@code 0x}. */
    public Optional<BlockRow> byHash(String hash) {
        return blocks.blockByHash(hash);
    }
}
