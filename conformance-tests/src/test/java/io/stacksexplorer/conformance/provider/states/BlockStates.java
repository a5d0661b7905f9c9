package io.stacksexplorer.conformance.provider.states;

import au.com.dius.pact.provider.junitsupport.State;
import au.com.dius.pact.provider.junitsupport.StateChangeAction;
import io.stacksexplorer.write.NewBlock;

import java.util.Map;

/** Provider states about blocks. */
public class BlockStates {

    private final DemoChainSeed seed;

    public BlockStates(DemoChainSeed seed) {
        this.seed = seed;
    }

    /**
     * "a block exists" {height: n} (default 1): blocks 1…n are on the canonical chain. Gives the
     * block's {@code height}, {@code hash} and {@code indexBlockHash}.
     */
    @State(value = "a block exists", action = StateChangeAction.SETUP)
    public Map<String, Object> aBlockExists(Map<String, Object> params) {
        NewBlock block = seed.ensureBlocks(StateParams.number(params, "height", 1));
        return Map.of("height", block.height(), "hash", block.blockHash(), "indexBlockHash", block.indexBlockHash());
    }
}
