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

    /** Confirmed canonical transactions involving {@code principal}, newest first, from an offset. */
    public Page<AddressTx> history(String principal, int limit, int offset) {
        long total = addresses.countHistory(principal).orElse(0L);
        return historyBelow(principal, limit, total, total - offset);
    }

    /** The page after {@code after}, the last row of a previous page of the same principal. */
    public Page<AddressTx> historyAfter(String principal, int limit, PagePosition after) {
        long total = addresses.countHistory(principal).orElse(0L);
        long last = addresses.findPosition(principal, after.txId()).orElse(after.position());
        return historyBelow(principal, limit, total, Math.min(last - 1, total));
    }

    /** The rows at positions {@code top} and below (the position is dense: offset k is total - k). */
    private Page<AddressTx> historyBelow(String principal, int limit, long total, long top) {
        long offset = total - top;
        if (top <= 0) {
            return new Page<>(List.of(), total, offset, null);
        }
        List<AddressStore.HistoryRow> page = addresses.historyRange(principal, top, Math.max(top - limit, 0));
        List<AddressTx> results = new ArrayList<>(page.size());
        for (AddressStore.HistoryRow row : page) {
            if (row.tx() != null) {
                results.add(new AddressTx(row.activity(), row.tx()));
            }
        }
        PagePosition next = null;
        if (!page.isEmpty() && page.get(page.size() - 1).activity().historyPosition() > 1) {
            AddressTxRow last = page.get(page.size() - 1).activity();
            next = new PagePosition(last.historyPosition(), last.txId(), 0);
        }
        return new Page<>(results, total, offset, next);
    }

    /** Pending transactions concerning {@code principal}, newest first. */
    public Page<MempoolTxRow> mempool(String principal, int limit, int offset) {
        return new Page<>(mempool.findPendingFor(principal, limit, offset),
                mempool.countPendingFor(principal).orElse(0L));
    }
}
