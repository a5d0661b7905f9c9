package io.stacksexplorer.query;

import jakarta.inject.Singleton;

import java.util.Optional;

/** Read facade for blocks. */
@Singleton
public class BlockQueries {

    private final BlockRepository blocks;

    BlockQueries(BlockRepository blocks) {
        this.blocks = blocks;
    }

    public Optional<BlockRow> latest() {
        return blocks.findLatest();
    }

    public Optional<BlockRow> byHeight(long height) {
        return blocks.findCanonicalByHeight(height);
    }

    /** {@code hash} normalised: lowercase with {@code 0x}. */
    public Optional<BlockRow> byHash(String hash) {
        return blocks.findCanonicalByHash(hash);
    }
}
