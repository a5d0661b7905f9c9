package io.stacksexplorer.generate;

import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.TxOutcome;

import java.util.List;

/**
 * One transaction as the node reports it once mined: its SIP-005 bytes and id, the outcome, and the
 * events it emitted (committed only when it succeeded; a failed transaction's events travel with
 * {@code committed: false}, as the node sends them).
 *
 * @param contractAbi the node's ABI JSON for a successful deployment, else null
 * @param hot         whether the hot address takes part (sender, sponsor, recipient or any asset
 *                    event of a successful transaction), by the API's own rule
 * @param hotLogs     committed prints of the hot contract
 * @param replaced    the cheaper transaction with the same nonce that this one replaced by fee in the
 *                    mempool, or null
 */
record GeneratedTx(String txId, String rawTx, String txType, boolean sponsored, TxOutcome status, String rawResult,
                   ExecutionCost cost, String contractAbi, List<NewEvent> events, boolean hot, int hotLogs,
                   Encoded replaced) {

    /** A transaction's id and {@code 0x}-hex bytes, with the API's {@code tx_type}. */
    record Encoded(String txId, String rawTx, String txType, boolean sponsored) {
    }

    boolean committed() {
        return status == TxOutcome.SUCCESS;
    }

    /** Committed contract logs. */
    int logs() {
        if (!committed()) {
            return 0;
        }
        int logs = 0;
        for (NewEvent e : events) {
            if (e instanceof NewEvent.ContractLog) {
                logs++;
            }
        }
        return logs;
    }

    GeneratedTx {
        events = List.copyOf(events);
    }
}
