package io.stacksexplorer.query;

import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;

/** Read facade for per-address histories and pending transactions. */
@Singleton
public class AddressQueries {

    /** One address transaction record: the principal's view and the transaction itself. */
    public record AddressTx(AddressTxRow activity, TxRow tx) {
    }

    private final AddressStore addresses;
    private final MempoolStore mempool;

    AddressQueries(AddressStore addresses, MempoolStore mempool) {
        this.addresses = addresses;
        this.mempool = mempool;
    }

    /**
     * Confirmed canonical transactions involving {@code principal}, newest first, from an offset: one
     * statement ({@link AddressStore#HISTORY_PAGE}).
     */
    public Page<AddressTx> history(String principal, int limit, int offset) {
        return page(addresses.historyPage(principal, offset, Long.MAX_VALUE, limit), offset);
    }

    /** The page after {@code after}, the last row of a previous page of the same principal. */
    public Page<AddressTx> historyAfter(String principal, int limit, PagePosition after) {
        long last = addresses.findPosition(principal, after.txId()).orElse(after.position());
        AddressStore.HistoryPage page = addresses.historyPage(principal, 0, last - 1, limit);
        return page(page, page.total() - Math.min(last - 1, page.total()));
    }

    /** A page's transactions (positions are dense: offset k is position total - k). */
    private static Page<AddressTx> page(AddressStore.HistoryPage page, long offset) {
        List<AddressStore.HistoryRow> rows = page.rows();
        List<AddressTx> results = new ArrayList<>(rows.size());
        for (AddressStore.HistoryRow row : rows) {
            if (row.tx() != null) {
                results.add(new AddressTx(row.activity(), row.tx()));
            }
        }
        PagePosition next = null;
        if (!rows.isEmpty() && rows.get(rows.size() - 1).activity().historyPosition() > 1) {
            AddressTxRow last = rows.get(rows.size() - 1).activity();
            next = new PagePosition(last.historyPosition(), last.txId(), 0);
        }
        return new Page<>(results, page.total(), offset, next);
    }

    /** Pending transactions concerning {@code principal}, newest first. */
    public Page<MempoolTxRow> mempool(String principal, int limit, int offset) {
        MempoolStore.PendingPage page = mempool.pendingPage(principal, limit, offset);
        return new Page<>(page.rows(), page.total());
    }
}
