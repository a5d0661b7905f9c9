package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;

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

    /** The ABI JSON of the deployed contract, when the node reported one. */
    public Optional<String> abi(String contractId) {
        return contracts.findDeployed(contractId).map(ContractDeployRow::abi);
    }

    public Page<EventRow> logs(String contractId, boolean unanchored, int limit, int offset) {
        return new Page<>(contracts.findLogs(contractId, unanchored, limit, offset),
                contracts.countLogs(contractId).orElse(0L));
    }
}
