package io.stacksexplorer.query;

import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Read facade for per-address histories and pending transactions. */
@Singleton
public class AddressQueries {

    /** One address transaction record: the principal's view and the transaction itself. */
    public record AddressTx(AddressTxRow activity, TxRow tx) {
    }

    /**
     * A page of an address's history and the ABI JSON of the contracts its contract calls name, by
     * contract id (those that have one).
     */
    public record History(Page<AddressTx> page, Map<String, String> abis, HistoryTops tops) {
    }

    /**
     * How long a principal's history is, and the positions' version (chain_state, V210) of the same
     * snapshot: the record at offset k sits at position {@code total - k}.
     */
    public record HistoryTops(long total, long positionsVersion) {
    }

    private final AddressStore addresses;
    private final MempoolStore mempool;
    private final ContractQueries contracts;

    AddressQueries(AddressStore addresses, MempoolStore mempool, ContractQueries contracts) {
        this.addresses = addresses;
        this.mempool = mempool;
        this.contracts = contracts;
    }

    /**
     * Confirmed canonical transactions involving {@code principal}, newest first, from an offset: one
     * statement ({@link AddressStore#HISTORY_PAGE}), and one more for ABIs not yet cached.
     */
    public History history(String principal, int limit, int offset) {
        return page(addresses.historyPage(principal, offset, Long.MAX_VALUE, limit), offset);
    }

    /** The page after {@code after}, the last row of a previous page of the same principal. */
    public History historyAfter(String principal, int limit, PagePosition after) {
        long last = addresses.findPosition(principal, after.txId()).orElse(after.position());
        AddressStore.HistoryPage page = addresses.historyPage(principal, 0, last - 1, limit);
        return page(page, page.total() - Math.min(last - 1, page.total()));
    }

    /** A page's transactions (positions are dense: offset k is position total - k). */
    private History page(AddressStore.HistoryPage page, long offset) {
        List<AddressStore.HistoryRow> rows = page.rows();
        List<AddressTx> results = new ArrayList<>(rows.size());
        Set<Deployment> called = new HashSet<>();
        for (AddressStore.HistoryRow row : rows) {
            if (row.tx() != null) {
                results.add(new AddressTx(row.activity(), row.tx()));
                if (row.calledAbi() != null) {
                    called.add(row.calledAbi());
                }
            }
        }
        PagePosition next = null;
        if (!rows.isEmpty() && rows.get(rows.size() - 1).activity().historyPosition() > 1) {
            AddressTxRow last = rows.get(rows.size() - 1).activity();
            next = new PagePosition(last.historyPosition(), last.txId(), 0);
        }
        return new History(new Page<>(results, page.total(), offset, next),
                called.isEmpty() ? Map.of() : contracts.abisOf(called), page.tops());
    }

    /** Pending transactions concerning {@code principal}, newest first. */
    public Page<MempoolTxRow> mempool(String principal, int limit, int offset) {
        MempoolStore.PendingPage page = mempool.pendingPage(principal, limit, offset);
        return new Page<>(page.rows(), page.total());
    }
}
