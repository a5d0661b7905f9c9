package io.stacksexplorer.write;

/**
 * A transaction the node reported entering its mempool, at {@code receiptTime} (Unix seconds).
 * {@code txId} and {@code facts} are set when the caller already decoded {@code rawTx} (the ingest
 * does, to check it), else null: the write path then decodes it itself.
 */
public record NewMempoolTransaction(String rawTx, long receiptTime, String txId, TxFacts facts) {

    public NewMempoolTransaction(String rawTx, long receiptTime) {
        this(rawTx, receiptTime, null, null);
    }
}
