package io.stacksexplorer.web;

import io.micronaut.http.annotation.Controller;
import io.stacksexplorer.query.TransactionLookup;
import io.stacksexplorer.query.TransactionQueries;
import io.stacksexplorer.server.api.TransactionsApi;
import io.stacksexplorer.server.model.TransactionLookupEntry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Lookups of up to 50 ids with their events, in at most four statements; on the event loop like every route (application.yml). */
@Controller
class TransactionsController implements TransactionsApi {

    /** The spec's cap on ids per lookup, over repeated and comma-separated ids together. */
    private static final int MAX_IDS = 50;

    private final TransactionQueries transactions;
    private final TransactionMapper mapper;

    TransactionsController(TransactionQueries transactions, TransactionMapper mapper) {
        this.transactions = transactions;
        this.mapper = mapper;
    }

    @Override
    public Map<String, TransactionLookupEntry> getTransactionsByIds(List<String> txId, Integer eventLimit,
                                                                   Integer eventOffset, Boolean unanchored) {
        List<String> ids = RequestParams.txIds(txId, "tx_id", MAX_IDS);
        Map<String, TransactionLookup> found = transactions.lookup(ids, RequestParams.unanchored(unanchored),
                eventLimit, eventOffset);
        if (found.isEmpty()) {
            throw ApiProblems.notFound("none of the " + ids.size() + " transaction ids was found");
        }
        TransactionMapper.Batch batch = mapper.batch(found.values().stream().map(lookup ->
                lookup instanceof TransactionLookup.Mined mined ? mined.tx().rawTx()
                        : ((TransactionLookup.InMempool) lookup).tx().rawTx()).toList());
        Map<String, TransactionLookupEntry> answer = new LinkedHashMap<>();
        for (String id : ids) {
            TransactionLookup lookup = found.get(id);
            TransactionLookupEntry entry = new TransactionLookupEntry(lookup != null);
            if (lookup instanceof TransactionLookup.Mined mined) {
                entry.setResult(batch.confirmed(mined.tx(), mined.events()));
            } else if (lookup instanceof TransactionLookup.InMempool pending) {
                entry.setResult(batch.pending(pending.tx(), pending.status()));
            }
            answer.put(id, entry);
        }
        return answer;
    }
}
