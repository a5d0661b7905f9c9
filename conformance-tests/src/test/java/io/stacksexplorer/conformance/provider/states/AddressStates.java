package io.stacksexplorer.conformance.provider.states;

import au.com.dius.pact.provider.junitsupport.State;
import au.com.dius.pact.provider.junitsupport.StateChangeAction;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.PrincipalActivity;

import java.util.Map;

/** Provider states about addresses: their confirmed history and their pending transactions. */
public class AddressStates {

    private final DemoChainSeed seed;

    public AddressStates(DemoChainSeed seed) {
        this.seed = seed;
    }

    /**
     * "an address has transactions" {minTransactions: n} (default 1): an address takes part in
     * at least n canonical transactions. Gives {@code address}.
     */
    @State(value = "an address has transactions", action = StateChangeAction.SETUP)
    public Map<String, Object> anAddressHasTransactions(Map<String, Object> params) {
        long wanted = StateParams.number(params, "minTransactions", 1);
        String address = DemoChainSeed.chain().summary().hotAddresses().get(0);
        long seen = 0;
        for (NewBlock block : DemoChainSeed.chain().blocks()) {
            for (NewTransaction tx : block.transactions()) {
                seen += PrincipalActivity.derive(seed.facts(tx.rawTx()), tx.status(), tx.events()).stream()
                        .filter(activity -> activity.principal().equals(address)).count();
            }
            if (seen >= wanted) {
                seed.ensureBlocks(block.height());
                return Map.of("address", address);
            }
        }
        throw new IllegalStateException("the demo chain has only " + seen + " transactions of " + address);
    }

    /**
     * "an address has pending transactions": an address sent a transaction that waits in the
     * mempool. Gives {@code address}.
     */
    @State(value = "an address has pending transactions", action = StateChangeAction.SETUP)
    public Map<String, Object> anAddressHasPendingTransactions() {
        DemoChainSeed.Pending pending = seed.ensurePending((txId, facts) -> true);
        return Map.of("address", pending.facts().senderAddress());
    }
}
