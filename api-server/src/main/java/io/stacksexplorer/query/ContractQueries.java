package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Read facade for contract deployment status, ABIs and log events. */
@Singleton
public class ContractQueries {

    /** A deployment status; {@code blockHeight} is null while pending. */
    public record ContractStatusRow(String contractId, String status, String txId, @Nullable Long blockHeight) {
    }

    private final ContractStore contracts;
    private final MempoolStore mempool;

    ContractQueries(ContractStore contracts, MempoolStore mempool) {
        this.contracts = contracts;
        this.mempool = mempool;
    }

    /** The latest canonical deployment attempt, else the pending one in the mempool. */
    public Optional<ContractStatusRow> status(String contractId) {
        Optional<ContractStatusRow> mined = contracts.latestDeploy(contractId)
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

    /** Log events of a contract, newest first, from an offset. */
    public Page<EventRow> logs(String contractId, boolean unanchored, int limit, int offset) {
        long total = contracts.countLogs(contractId).orElse(0L);
        long top = unanchored ? total : anchoredTop(contractId, total);
        return logsBelow(contractId, limit, total, top - offset, offset);
    }

    /** The page after {@code after}, the last event of a previous page of the same contract. */
    public Page<EventRow> logsAfter(String contractId, boolean unanchored, int limit, PagePosition after) {
        long total = contracts.countLogs(contractId).orElse(0L);
        long newest = unanchored ? total : anchoredTop(contractId, total);
        long last = contracts.findLogPosition(contractId, after.txId(), after.eventIndex()).orElse(after.position());
        long top = Math.min(last - 1, newest);
        return logsBelow(contractId, limit, total, top, Math.max(newest - top, 0));
    }

    private long anchoredTop(String contractId, long total) {
        return total == 0 ? 0 : contracts.findAnchoredTop(contractId).orElse(0L);
    }

    /** The events at positions {@code top} and below (positions are dense, newest = highest). */
    private Page<EventRow> logsBelow(String contractId, int limit, long total, long top, long offset) {
        if (top <= 0) {
            return new Page<>(List.of(), total, offset, null);
        }
        List<EventRow> rows = contracts.logRange(contractId, top, Math.max(top - limit, 0));
        PagePosition next = null;
        long lastPosition = top - rows.size() + 1;
        if (!rows.isEmpty() && lastPosition > 1) {
            EventRow last = rows.get(rows.size() - 1);
            next = new PagePosition(lastPosition, last.txId(), last.eventIndex());
        }
        return new Page<>(rows, total, offset, next);
    }
}
