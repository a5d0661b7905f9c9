package io.stacksexplorer.write;

import java.util.List;

/**
 * A mined transaction as the node reports it: the raw bytes (decoded by the write path itself, so
 * every source derives the same columns), the execution outcome, and its committed events in the
 * node's order.
 *
 * @param microblockHash     hash of the microblock that carried it, {@code null} when mined in the
 *                           anchor block itself
 * @param microblockSequence sequence of that microblock, ignored when {@code microblockHash} is null
 * @param contractAbi        the ABI JSON the node reports for a deployment, or {@code null}
 */
public record NewTransaction(
        String txId,
        String rawTx,
        int txIndex,
        TxOutcome status,
        String rawResult,
        ExecutionCost cost,
        String microblockHash,
        int microblockSequence,
        String contractAbi,
        List<NewEvent> events) {

    /** Sequence value served for transactions mined in the anchor block (no microblock). */
    public static final int ANCHOR_BLOCK_SEQUENCE = 2147483647;

    public NewTransaction {
        events = List.copyOf(events);
    }

    public boolean inMicroblock() {
        return microblockHash != null;
    }
}
