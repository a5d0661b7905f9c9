package io.stacksexplorer.write;

import java.util.Objects;

/**
 * A transaction of a delivered block that this build cannot read yet (a wire feature, status or Clarity
 * value newer than its decoder). The block is stored and served with every other transaction; this one is
 * recorded here, not served, and completed by {@code rebuild} with a build that knows the feature: the
 * node's payload, kept verbatim, has everything its receipt said (txid, status, result, events, cost).
 * Refusing the payload instead would stop the node's event delivery for good: it resends a refused
 * payload forever, in order.
 *
 * @param status     the node's status string, as sent (it may be the unknown part)
 * @param reason     what this build could not read, e.g. {@code unknown post-condition type 5 at byte offset 98}
 * @param byteOffset where in {@code raw_tx} decoding stopped; -1 when the problem is not in the raw bytes
 */
public record HeldTransaction(String txId, int txIndex, String status, String reason, int byteOffset) {

    public HeldTransaction {
        Objects.requireNonNull(txId, "txId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reason, "reason");
    }
}
