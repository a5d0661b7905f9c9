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
 * @param vmError            the Clarity VM's error the node's receipt reports ({@code vm_error}), or {@code null}
 * @param facts              the indexed columns when the caller already decoded {@code rawTx} (the
 *                           ingest does, while it checks the id), or {@code null}: the write path
 *                           then decodes it itself
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
        String vmError,
        List<NewEvent> events,
        TxFacts facts) {

    /** Sequence value served for transactions mined in the anchor block (no microblock). */
    public static final int ANCHOR_BLOCK_SEQUENCE = 2147483647;

    public NewTransaction {
        events = List.copyOf(events);
    }

    /** A transaction whose raw bytes the write path decodes itself. */
    public NewTransaction(String txId, String rawTx, int txIndex, TxOutcome status, String rawResult,
                          ExecutionCost cost, String microblockHash, int microblockSequence, String contractAbi,
                          List<NewEvent> events) {
        this(txId, rawTx, txIndex, status, rawResult, cost, microblockHash, microblockSequence, contractAbi, null,
                events, null);
    }

    /** The same transaction at another index (a confirmed microblock transaction keeps its microblock's). */
    NewTransaction atIndex(int index) {
        return index == txIndex ? this : new NewTransaction(txId, rawTx, index, status, rawResult, cost, microblockHash,
                microblockSequence, contractAbi, vmError, events, facts);
    }

    public boolean inMicroblock() {
        return microblockHash != null;
    }
}
