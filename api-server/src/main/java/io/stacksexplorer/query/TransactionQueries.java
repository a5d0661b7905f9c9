package io.stacksexplorer.query;

import jakarta.inject.Singleton;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Read facade for transaction lookups by id. */
@Singleton
public class TransactionQueries {

    private final TransactionRepository txs;
    private final MempoolRepository mempool;

    TransactionQueries(TransactionRepository txs, MempoolRepository mempool) {
        this.txs = txs;
        this.mempool = mempool;
    }

    /**
     * Resolves each id (normalised, distinct) to its canonical mined row with a page of its events,
     * or else to its mempool row; ids found nowhere are absent from the answer. Three queries in
     * all, plus one per mined transaction for its events.
     */
    public Map<String, TransactionLookup> lookup(List<String> txIds, boolean unanchored, int eventLimit,
                                                 int eventOffset) {
        Map<String, TransactionLookup> found = new LinkedHashMap<>();
        for (TxRow row : txs.findCanonical(txIds, unanchored)) {
            found.putIfAbsent(row.txId(), new TransactionLookup.Mined(row,
                    txs.findEvents(row.txId(), row.indexBlockHash(), eventLimit, eventOffset)));
        }
        List<String> rest = txIds.stream().filter(id -> !found.containsKey(id)).toList();
        if (!rest.isEmpty()) {
            Map<String, String> forkStatus = new HashMap<>();
            for (TxRow row : txs.findAnyFork(rest)) {
                forkStatus.putIfAbsent(row.txId(), row.txStatus());
            }
            for (MempoolTxRow row : mempool.findByTxIds(rest)) {
                // A transaction a reorg returned to the mempool keeps the status it was mined with,
                // as the peer serves it.
                found.put(row.txId(), new TransactionLookup.InMempool(row,
                        forkStatus.getOrDefault(row.txId(), row.txStatus())));
            }
        }
        Map<String, TransactionLookup> ordered = new LinkedHashMap<>();
        for (String id : txIds) {
            if (found.containsKey(id)) {
                ordered.put(id, found.get(id));
            }
        }
        return ordered;
    }
}
