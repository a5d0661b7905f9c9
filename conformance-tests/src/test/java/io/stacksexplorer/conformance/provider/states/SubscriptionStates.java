package io.stacksexplorer.conformance.provider.states;

import au.com.dius.pact.provider.junitsupport.State;
import au.com.dius.pact.provider.junitsupport.StateChangeAction;

import java.util.Map;

/** Provider states about the subscriptions' change log. */
public class SubscriptionStates {

    private final DemoChainSeed seed;

    public SubscriptionStates(DemoChainSeed seed) {
        this.seed = seed;
    }

    /** "the change log was pruned": blocks exist, and the log keeps only its newest change. */
    @State(value = "the change log was pruned", action = StateChangeAction.SETUP)
    public void theChangeLogWasPruned(Map<String, Object> params) {
        seed.pruneChangeLog(StateParams.number(params, "height", 2));
    }
}
