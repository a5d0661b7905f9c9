package io.stacksexplorer.query;

import jakarta.inject.Singleton;

/** Read facade for the chain tip and network facts. */
@Singleton
public class StatusQueries {

    private final ChainStateRepository state;

    StatusQueries(ChainStateRepository state) {
        this.state = state;
    }

    public ChainStateRow chainState() {
        return state.find();
    }
}
