package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Read facade for contract deployment status, ABIs and log events. */
@Singleton
public class ContractQueries {

    /** A deployment status; {@code blockHeight} is null while pending. */
    public record ContractStatusRow(String contractId, String status, String txId, @Nullable Long blockHeight) {
    }

    private final ContractRepository contracts;
    private final MempoolRepository mempool;

    ContractQueries(ContractRepository contracts, MempoolRepository mempool) {
        this.contracts = contracts;
        this.mempool = mempool;
    }

    /** The latest canonical deployment attempt, else the pending one in the mempool. */
    public Optional<ContractStatusRow> status(String contractId) {
        Optional<ContractStatusRow> mined = contracts.findLatestDeploy(contractId)
                .map(row -> new ContractStatusRow(contractId, row.txStatus(), row.txId(), row.blockHeight()));
        if (mined.isPresent()) {
            return mined;
        }
        return mempool.findPendingDeploy(contractId)
                .map(row -> new ContractStatusRow(contractId, "pending", row.txId(), null));
    }

    /**
     * The ABI JSON of each contract's latest canonical successful deployment, for the contracts that
     * have one; one query for a whole page of contract calls.
     */
    public Map<String, String> abis(Collection<String> contractIds) {
        Map<String, ContractDeployRow> latest = new HashMap<>();
        for (ContractDeployRow row : contracts.findAllDeployed(contractIds)) {
            latest.merge(row.contractId(), row, (a, b) -> b.blockHeight() > a.blockHeight() ? b : a);
        }
        Map<String, String> abis = new HashMap<>();
        latest.forEach((contract, row) -> {
            if (row.abi() != null) {
                abis.put(contract, row.abi());
            }
        });
        return abis;
    }

    public Page<EventRow> logs(String contractId, boolean unanchored, int limit, int offset) {
        return new Page<>(contracts.findLogs(contractId, unanchored, limit, offset),
                contracts.countLogs(contractId).orElse(0L));
    }
}
