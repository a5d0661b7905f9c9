package io.stacksexplorer.write;

import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionPayload;
import jakarta.inject.Singleton;

/** Derives the indexed columns with the project's own wire-format codec. */
@Singleton
public class CodecTxDecoder implements TxDecoder {

    @Override
    public TxFacts decode(String rawTxHex) {
        return facts(StacksTransaction.decodeHex(rawTxHex));
    }

    /** The indexed columns of an already decoded transaction. */
    public static TxFacts facts(StacksTransaction tx) {
        String contractId = null;
        String recipient = null;
        if (tx.payload() instanceof TransactionPayload.ContractCall call) {
            contractId = call.contract().toString();
        } else if (tx.payload() instanceof TransactionPayload.SmartContract) {
            contractId = tx.smartContractId().map(Object::toString).orElse(null);
        } else if (tx.payload() instanceof TransactionPayload.TokenTransfer transfer) {
            recipient = transfer.recipientAddress();
        }
        return new TxFacts(
                tx.payload().txType(),
                tx.nonce().longValueExact(),
                tx.fee(),
                tx.senderAddress().toString(),
                tx.isSponsored(),
                tx.sponsorAddress().map(Object::toString).orElse(null),
                tx.sponsorNonce().map(n -> n.longValueExact()).orElse(null),
                contractId,
                recipient);
    }
}
