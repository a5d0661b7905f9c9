package io.stacksexplorer.query;

import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Read facade for transaction lookups by id. */
@Singleton
public class TransactionQueries {

    private final TransactionStore txs;
    private final MempoolStore mempool;

    TransactionQueries(TransactionStore txs, MempoolStore mempool) {
        this.txs = txs;
        this.mempool = mempool;
    }

    /**
     * Resolves each id (normalised, distinct) to its canonical mined row with a page of its events,
     * or else to its mempool row; ids found nowhere are absent from the answer. At most four queries,
     * however many ids: the events of all mined transactions are read together.
     */
    public Map<String, TransactionLookup> lookup(List<String> txIds, boolean unanchored, int eventLimit,
                                                 int eventOffset) {
        Map<String, TransactionLookup> found = new LinkedHashMap<>();
        Map<String, TxRow> mined = new LinkedHashMap<>();
        for (TxRow row : txs.canonicalTxs(txIds, unanchored)) {
            mined.putIfAbsent(row.txId(), row);
        }
        if (!mined.isEmpty()) {
            Map<String, List<EventRow>> events = new HashMap<>();
            for (BlockEventRow event : txs.eventPages(mined.keySet(), eventOffset,
                    (long) eventOffset + eventLimit)) {
                TxRow tx = mined.get(event.txId());
                if (tx != null && tx.indexBlockHash().equals(event.indexBlockHash())) {
                    events.computeIfAbsent(event.txId(), id -> new ArrayList<>()).add(event.event());
                }
            }
            mined.forEach((id, row) -> found.put(id,
                    new TransactionLookup.Mined(row, events.getOrDefault(id, List.of()))));
        }
        List<String> rest = txIds.stream().filter(id -> !found.containsKey(id)).toList();
        if (!rest.isEmpty()) {
            for (MempoolTxRow row : mempool.findByTxIds(rest)) {
                // A transaction a reorg returned to the mempool is served with its mempool status
                // (pending, later perhaps dropped_stale_garbage_collect), never with the status it
                // was mined with: "success" without a block would contradict itself (the mid-2024
                // peer did that; today's does not, PEER.md).
                found.put(row.txId(), new TransactionLookup.InMempool(row, row.txStatus()));
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
