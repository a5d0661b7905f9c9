package io.stacksexplorer.query;

import java.util.List;

/** What a transaction id resolved to. */
public sealed interface TransactionLookup {

    /** Mined in a canonical block (or an unanchored microblock, when asked for). */
    record Mined(TxRow tx, List<EventRow> events) implements TransactionLookup {
        public Mined {
            events = List.copyOf(events);
        }
    }

    /** Known from the mempool only. {@code status} is what the lookup serves as {@code tx_status}. */
    record InMempool(MempoolTxRow tx, String status) implements TransactionLookup {
    }
}
