package io.stacksexplorer.query;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Read facade for contract deployment status, ABIs and log events. */
@Singleton
public class ContractQueries {

    /** A deployment status; {@code blockHeight} is null while pending. */
    public record ContractStatusRow(String contractId, String status, String txId, @Nullable Long blockHeight) {
    }

    /** About 16 MB of ABI text (a deployment's is 0.5 to 2 KB in the generated chains). */
    private static final long MAX_ABI_CHARS = 16L << 20;

    private final ContractStore contracts;
    private final MempoolStore mempool;
    /**
     * ABI JSON by deployment: a deployment's ABI never changes, so an entry cannot go stale; which
     * deployment a contract call uses is read with the page on every request ({@link AddressStore#HISTORY_PAGE}).
     * Per application context (not per JVM), so that every server reads its own database.
     */
    private final Cache<Deployment, String> abiByDeployment = Caffeine.newBuilder()
            .maximumWeight(MAX_ABI_CHARS)
            .weigher((Deployment d, String abi) -> abi.length())
            .build();

    ContractQueries(ContractStore contracts, MempoolStore mempool) {
        this.contracts = contracts;
        this.mempool = mempool;
    }

    /**
     * For each contract, the latest canonical deployment attempt, else the pending one in the mempool;
     * contracts with neither are left out. One statement for the mined attempts of all of them, and one
     * for the pending attempts of those without a mined one.
     */
    public Map<String, ContractStatusRow> statuses(Collection<String> contractIds) {
        Map<String, ContractDeployRow> mined = contracts.latestDeploys(contractIds);
        Map<String, ContractStatusRow> statuses = new HashMap<>();
        Set<String> unmined = new HashSet<>();
        for (String contractId : contractIds) {
            ContractDeployRow row = mined.get(contractId);
            if (row != null) {
                statuses.put(contractId, new ContractStatusRow(contractId, row.txStatus(), row.txId(), row.blockHeight()));
            } else {
                unmined.add(contractId);
            }
        }
        mempool.pendingDeploys(unmined).forEach((contractId, txId) -> statuses.put(contractId,
                new ContractStatusRow(contractId, "pending", txId, null)));
        return statuses;
    }

    /**
     * The ABI JSON of each contract's latest canonical successful deployment, for the contracts that
     * have one; one query for the deployments of a whole page of contract calls, their ABIs from the
     * cache by deployment.
     */
    public Map<String, String> abis(Collection<String> contractIds) {
        return abisOf(contracts.latestSuccessfulDeploys(contractIds));
    }

    /**
     * The ABI JSON of each of the given deployments, by contract id: from the cache, else one statement
     * for all the missing ones. A deployment whose row is gone by then (a microblock's, re-keyed when
     * anchored) is left out, like a contract without an ABI.
     */
    Map<String, String> abisOf(Collection<Deployment> deployments) {
        Map<String, String> abis = new HashMap<>();
        Set<String> missing = new HashSet<>();
        for (Deployment d : deployments) {
            String abi = abiByDeployment.getIfPresent(d);
            if (abi != null) {
                abis.put(d.contractId(), abi);
            } else {
                missing.add(d.contractId());
            }
        }
        if (!missing.isEmpty()) {
            Map<Deployment, String> read = contracts.abisOf(missing);
            abiByDeployment.putAll(read);
            for (Deployment d : deployments) {
                String abi = read.get(d);
                if (abi != null) {
                    abis.put(d.contractId(), abi);
                }
            }
        }
        return abis;
    }

    /**
     * Where a contract's log pages start, as of one snapshot: its event count ({@code total}, the newest
     * position with unanchored events), the position of its newest anchored event, and the served
     * rows' positions version (migration V210).
     */
    public record LogTops(long total, long anchored, long positionsVersion) {

        /** The position of the event at offset 0. */
        public long newest(boolean unanchored) {
            return unanchored ? total : anchored;
        }
    }

    /**
     * A page of a contract's log events, newest first, from an offset, and where the contract's pages
     * start as of the same snapshot: the page's first event sits at {@code tops.newest(unanchored) - offset}.
     */
    public record LogsRead(Page<EventRow> page, LogTops tops) {
    }

    /** One statement ({@link ContractStore#LOG_PAGE}): the page and where the contract's pages start. */
    public LogsRead readLogs(String contractId, boolean unanchored, int limit, int offset) {
        ContractStore.LogPage page = contracts.logPage(contractId, unanchored, offset, Long.MAX_VALUE, limit);
        return new LogsRead(page(page, page.tops().newest(unanchored) - offset, offset), page.tops());
    }

    /** The page after {@code after}, the last event of a previous page of the same contract. */
    public Page<EventRow> logsAfter(String contractId, boolean unanchored, int limit, PagePosition after) {
        long last = contracts.findLogPosition(contractId, after.txId(), after.eventIndex()).orElse(after.position());
        ContractStore.LogPage page = contracts.logPage(contractId, unanchored, 0, last - 1, limit);
        long newest = page.tops().newest(unanchored);
        long top = Math.min(last - 1, newest);
        return page(page, top, Math.max(newest - top, 0));
    }

    /** A page whose first event sits at position {@code top} (positions are dense, newest = highest). */
    private static Page<EventRow> page(ContractStore.LogPage page, long top, long offset) {
        List<EventRow> rows = page.rows();
        PagePosition next = null;
        long lastPosition = top - rows.size() + 1;
        if (!rows.isEmpty() && lastPosition > 1) {
            EventRow last = rows.get(rows.size() - 1);
            next = new PagePosition(lastPosition, last.txId(), last.eventIndex());
        }
        return new Page<>(rows, page.tops().total(), offset, next);
    }
}
