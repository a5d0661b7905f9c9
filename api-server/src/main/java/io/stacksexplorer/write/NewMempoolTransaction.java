package io.stacksexplorer.write;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;

/**
 * A transaction the node reported entering its mempool, at {@code receiptTime} (Unix seconds).
 * {@code txId} and {@code facts} are set when the caller already decoded {@code rawTx} (the ingest
 * does, to check it), else null: the write path then decodes it itself.
 */
public record NewMempoolTransaction(String rawTx, long receiptTime, String txId, TxFacts facts) {

    public NewMempoolTransaction(String rawTx, long receiptTime) {
        this(rawTx, receiptTime, null, null);
    }

    /** The transaction id: {@code txId} when the caller decoded it, else hashed from the raw bytes. */
    public String id() {
        return txId != null ? txId : Sha512_256.txId(Hex.decode(rawTx));
    }
}
