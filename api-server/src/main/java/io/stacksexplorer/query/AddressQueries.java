package io.stacksexplorer.query;

import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Read facade for per-address histories and pending transactions. */
@Singleton
public class AddressQueries {

    /** One address transaction record: the principal's view and the transaction itself. */
    public record AddressTx(AddressTxRow activity, TxRow tx) {
    }

    private final AddressRepository addresses;
    private final TransactionRepository txs;
    private final MempoolRepository mempool;

    AddressQueries(AddressRepository addresses, TransactionRepository txs, MempoolRepository mempool) {
        this.addresses = addresses;
        this.txs = txs;
        this.mempool = mempool;
    }

    /** Confirmed canonical transactions involving {@code principal}, newest first. */
    public Page<AddressTx> history(String principal, int limit, int offset) {
        List<AddressTxRow> page = addresses.findHistory(principal, limit, offset);
        List<AddressTx> results = new ArrayList<>(page.size());
        if (!page.isEmpty()) {
            Map<String, TxRow> byKey = new HashMap<>();
            for (TxRow row : txs.findCanonical(page.stream().map(AddressTxRow::txId).distinct().toList(), true)) {
                byKey.put(row.txId() + row.indexBlockHash(), row);
            }
            for (AddressTxRow activity : page) {
                TxRow tx = byKey.get(activity.txId() + activity.indexBlockHash());
                if (tx != null) {
                    results.add(new AddressTx(activity, tx));
                }
            }
        }
        return new Page<>(results, addresses.countHistory(principal).orElse(0L));
    }

    /** Pending transactions concerning {@code principal}, newest first. */
    public Page<MempoolTxRow> mempool(String principal, int limit, int offset) {
        return new Page<>(mempool.findPendingFor(principal, limit, offset),
                mempool.countPendingFor(principal).orElse(0L));
    }
}
