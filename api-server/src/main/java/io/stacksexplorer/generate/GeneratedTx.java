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
 * @param extra       what only today's node reports (see {@link Extra})
 */
record GeneratedTx(String txId, String rawTx, String txType, boolean sponsored, TxOutcome status, String rawResult,
                   ExecutionCost cost, String contractAbi, List<NewEvent> events, boolean hot, int hotLogs,
                   Encoded replaced, Extra extra) {

    /**
     * Receipt facts a node of epoch 3.3 or later writes (earlier parts of a log keep the older shape).
     *
     * @param vmError      the Clarity VM's error of a failed transaction, as the node words it, or null
     * @param lockContract the boot contract named by the transaction's {@code stx_lock_event}; null: {@code .pox}
     * @param burnchainOp  the Bitcoin operation this receipt stands for ({@code raw_tx} "0x00"), or null
     */
    record Extra(String vmError, String lockContract, BurnchainOperation burnchainOp) {
        static final Extra NONE = new Extra(null, null, null);
    }

    GeneratedTx(String txId, String rawTx, String txType, boolean sponsored, TxOutcome status, String rawResult,
                ExecutionCost cost, String contractAbi, List<NewEvent> events, boolean hot, int hotLogs,
                Encoded replaced) {
        this(txId, rawTx, txType, sponsored, status, rawResult, cost, contractAbi, events, hot, hotLogs, replaced,
                Extra.NONE);
    }

    GeneratedTx withExtra(Extra other) {
        return new GeneratedTx(txId, rawTx, txType, sponsored, status, rawResult, cost, contractAbi, events, hot,
                hotLogs, replaced, other);
    }

    boolean isBurnchainOperation() {
        return extra.burnchainOp() != null;
    }

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
