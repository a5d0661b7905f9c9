package io.stacksexplorer.query;

/** A pending transaction's place in the v3 mempool order: receipt time, then id (normalised, {@code 0x} lowercase). */
public record MempoolKey(long receiptTime, String txId) {
}
