package io.stacksexplorer.query;

/**
 * One mined deployment attempt, by the key of its {@code smart_contracts} row. What the row holds
 * (the ABI above all) never changes: a reorg flips its canonical flags, a new attempt is a new row.
 */
record Deployment(String contractId, String txId, String indexBlockHash) {
}
