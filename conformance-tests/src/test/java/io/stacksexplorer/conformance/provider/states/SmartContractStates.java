package io.stacksexplorer.conformance.provider.states;

import au.com.dius.pact.provider.junitsupport.State;
import au.com.dius.pact.provider.junitsupport.StateChangeAction;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;

import java.util.HashMap;
import java.util.Map;

/** Provider states about smart contracts: deployments and their log events. */
public class SmartContractStates {

    private final DemoChainSeed seed;

    public SmartContractStates(DemoChainSeed seed) {
        this.seed = seed;
    }

    /**
     * "a contract deployment exists" {status: s}: a contract whose only deployment has status
     * {@code success}, {@code abort_by_response}, {@code abort_by_post_condition} (mined) or
     * {@code pending} (in the mempool). Gives {@code contractId} and the deploying {@code txId}.
     */
    @State(value = "a contract deployment exists", action = StateChangeAction.SETUP)
    public Map<String, Object> aContractDeploymentExists(Map<String, Object> params) {
        String status = StateParams.text(params, "status", "success");
        Map<String, Integer> deployments = deploymentCounts();
        if ("pending".equals(status)) {
            DemoChainSeed.Pending pending = seed.ensurePending((txId, facts) ->
                    "smart_contract".equals(facts.txType()) && deployments.get(facts.contractId()) == 1);
            return Map.of("contractId", pending.facts().contractId(), "txId", pending.txId());
        }
        DemoChainSeed.Mined mined = seed.ensureMined((tx, facts) -> "smart_contract".equals(facts.txType())
                && tx.status().apiName().equals(status) && deployments.get(facts.contractId()) == 1);
        return Map.of("contractId", mined.facts().contractId(), "txId", mined.tx().txId(),
                "blockHeight", mined.block().height());
    }

    /**
     * "a contract has log events" {minEvents: n} (default 1): canonical blocks hold at least n
     * {@code smart_contract_log} events of one contract. Gives {@code contractId}.
     */
    @State(value = "a contract has log events", action = StateChangeAction.SETUP)
    public Map<String, Object> aContractHasLogEvents(Map<String, Object> params) {
        long wanted = StateParams.number(params, "minEvents", 1);
        String contractId = DemoChainSeed.chain().summary().contractIdWithLogs();
        long seen = 0;
        for (NewBlock block : DemoChainSeed.chain().blocks()) {
            for (NewTransaction tx : block.transactions()) {
                for (NewEvent event : tx.events()) {
                    if (event instanceof NewEvent.ContractLog log && log.contractId().equals(contractId)) {
                        seen++;
                    }
                }
            }
            if (seen >= wanted) {
                seed.ensureBlocks(block.height());
                return Map.of("contractId", contractId);
            }
        }
        throw new IllegalStateException("the demo chain has only " + seen + " log events of " + contractId);
    }

    /** How many deployments (mined or pending) each contract id has in the demo chain. */
    private Map<String, Integer> deploymentCounts() {
        Map<String, Integer> counts = new HashMap<>();
        for (NewBlock block : DemoChainSeed.chain().blocks()) {
            for (NewTransaction tx : block.transactions()) {
                var facts = seed.facts(tx.rawTx());
                if ("smart_contract".equals(facts.txType())) {
                    counts.merge(facts.contractId(), 1, Integer::sum);
                }
            }
        }
        for (NewMempoolTransaction tx : DemoChainSeed.chain().mempool()) {
            var facts = seed.facts(tx.rawTx());
            if ("smart_contract".equals(facts.txType())) {
                counts.merge(facts.contractId(), 1, Integer::sum);
            }
        }
        return counts;
    }
}
