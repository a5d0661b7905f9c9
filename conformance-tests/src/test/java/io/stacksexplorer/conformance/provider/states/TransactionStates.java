package io.stacksexplorer.conformance.provider.states;

import au.com.dius.pact.provider.junitsupport.State;
import au.com.dius.pact.provider.junitsupport.StateChangeAction;
import io.stacksexplorer.write.TxOutcome;

import java.util.Map;

/** Provider states about transactions, mined and pending. */
public class TransactionStates {

    private final DemoChainSeed seed;

    public TransactionStates(DemoChainSeed seed) {
        this.seed = seed;
    }

    /**
     * "a confirmed transaction exists" {txType: t} (default token_transfer): a successful
     * transaction of that type is mined in a canonical block. Gives {@code txId} and
     * {@code blockHeight}.
     */
    @State(value = "a confirmed transaction exists", action = StateChangeAction.SETUP)
    public Map<String, Object> aConfirmedTransactionExists(Map<String, Object> params) {
        String type = StateParams.text(params, "txType", "token_transfer");
        DemoChainSeed.Mined mined = seed.ensureMined((tx, facts) ->
                facts.txType().equals(type) && tx.status() == TxOutcome.SUCCESS);
        return Map.of("txId", mined.tx().txId(), "blockHeight", mined.block().height());
    }

    /**
     * "a pending transaction exists" {txType: t} (default token_transfer): a transaction of that
     * type waits in the mempool. Gives {@code txId} and its {@code senderAddress}.
     */
    @State(value = "a pending transaction exists", action = StateChangeAction.SETUP)
    public Map<String, Object> aPendingTransactionExists(Map<String, Object> params) {
        String type = StateParams.text(params, "txType", "token_transfer");
        DemoChainSeed.Pending pending = seed.ensurePending((txId, facts) -> facts.txType().equals(type));
        return Map.of("txId", pending.txId(), "senderAddress", pending.facts().senderAddress());
    }

    /**
     * "transactions exist" {txIds: [...]}: each named transaction exists as the provider's demo
     * chain has it, mined or pending. For requests that must name several ids at once.
     */
    @State(value = "transactions exist", action = StateChangeAction.SETUP)
    public Map<String, Object> transactionsExist(Map<String, Object> params) {
        StateParams.texts(params, "txIds").forEach(seed::ensureTransaction);
        return Map.of();
    }
}
