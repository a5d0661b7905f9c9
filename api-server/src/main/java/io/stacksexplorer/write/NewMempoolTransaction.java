package io.stacksexplorer.write;

/** A transaction the node reported entering its mempool, at {@code receiptTime} (Unix seconds). */
public record NewMempoolTransaction(String rawTx, long receiptTime) {
}
