package io.stacksexplorer.web;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.query.AddressQueries;
import io.stacksexplorer.query.AddressTxRow;
import io.stacksexplorer.query.CursorPages;
import io.stacksexplorer.query.MempoolTxRow;
import io.stacksexplorer.query.TxRow;
import io.stacksexplorer.server.model.AffectedBalances;
import io.stacksexplorer.server.model.BitcoinBlockPosition;
import io.stacksexplorer.server.model.BlockPosition;
import io.stacksexplorer.server.model.CoinbasePayload;
import io.stacksexplorer.server.model.CoinbaseSummary;
import io.stacksexplorer.server.model.ContractCallSummary;
import io.stacksexplorer.server.model.MempoolTransactionSummary;
import io.stacksexplorer.server.model.PrincipalBalanceChanges;
import io.stacksexplorer.server.model.PrincipalInvolvement;
import io.stacksexplorer.server.model.PrincipalTransaction;
import io.stacksexplorer.server.model.SmartContractPayload;
import io.stacksexplorer.server.model.SmartContractSummary;
import io.stacksexplorer.server.model.StxBalanceChange;
import io.stacksexplorer.server.model.TenureChangePayload;
import io.stacksexplorer.server.model.TenureChangeSummary;
import io.stacksexplorer.server.model.TokenTransferPayload;
import io.stacksexplorer.server.model.TokenTransferSummary;
import io.stacksexplorer.server.model.TransactionSender;
import io.stacksexplorer.server.model.TransactionSponsor;
import io.stacksexplorer.server.model.TransactionStatus;
import io.stacksexplorer.server.model.TransactionSummary;
import io.stacksexplorer.server.model.TransactionType;
import io.stacksexplorer.server.model.TransferMemo;

import java.nio.charset.StandardCharsets;

/**
 * The peer's v3 compact shapes from stored rows: block and status columns from the row, what the
 * sender signed from the decoded raw bytes ({@link Renderings#signedPart}), the principal's part from
 * its history row.
 */
final class SummaryMapper {

    private SummaryMapper() {
    }

    static PrincipalTransaction principalTransaction(String principal, AddressQueries.AddressTx record) {
        TxRow row = record.tx();
        AddressTxRow a = record.activity();
        SignedPart part = Renderings.signedPart(row.rawTx());
        TransactionSummary summary = new TransactionSummary(row.txId(), sender(part), sponsor(part), part.fee(),
                new BlockPosition(row.blockHeight(), row.blockHash(), row.indexBlockHash(), row.blockTime(),
                        row.txIndex()),
                new BitcoinBlockPosition(row.burnBlockHeight(), row.burnBlockTime()),
                TransactionStatus.fromValue(row.txStatus()), part.txType());
        switch (part.txType()) {
            case TOKEN_TRANSFER -> summary.setTokenTransfer(tokenTransfer(part));
            case SMART_CONTRACT -> summary.setSmartContract(smartContract(part));
            case CONTRACT_CALL -> summary.setContractCall(contractCall(part));
            case COINBASE -> summary.setCoinbase(new CoinbaseSummary(((CoinbasePayload) part.payload()).getAltRecipient()));
            case TENURE_CHANGE -> summary.setTenureChange(
                    new TenureChangeSummary(((TenureChangePayload) part.payload()).getCause()));
            default -> { } // a poison microblock has no summary payload
        }
        PrincipalInvolvement involvement = principal.equals(part.senderAddress()) ? PrincipalInvolvement.SENDER
                : principal.equals(part.sponsorAddress()) ? PrincipalInvolvement.SPONSOR : PrincipalInvolvement.AFFECTED;
        // As the peer derives it: the fee payer's STX balance is touched even by a zero fee, and a
        // transfer's recipient's even when the transfer failed.
        String feePayer = part.sponsored() ? part.sponsorAddress() : part.senderAddress();
        boolean recipient = part.txType() == TransactionType.TOKEN_TRANSFER
                && principal.equals(((TokenTransferPayload) part.payload()).getRecipientAddress());
        boolean stx = principal.equals(feePayer) || recipient || a.stxTransfer() + a.stxMint() + a.stxBurn() > 0;
        return new PrincipalTransaction(summary, involvement,
                new PrincipalBalanceChanges(new StxBalanceChange(a.stxSent().toPlainString(),
                        a.stxReceived().toPlainString(), a.stxReceived().subtract(a.stxSent()).toPlainString())),
                new AffectedBalances(stx, a.ftTransfer() + a.ftMint() + a.ftBurn() > 0,
                        a.nftTransfer() + a.nftMint() + a.nftBurn() > 0));
    }

    static MempoolTransactionSummary pending(CursorPages.PendingSummary pending) {
        MempoolTxRow row = pending.tx();
        SignedPart part = Renderings.signedPart(row.rawTx());
        MempoolTransactionSummary summary = new MempoolTransactionSummary(row.txId(), sender(part), sponsor(part),
                part.fee(), row.receiptTime(), pending.receiptBlockHeight(), TransactionStatus.fromValue(row.txStatus()),
                part.txType());
        switch (part.txType()) {
            case TOKEN_TRANSFER -> summary.setTokenTransfer(tokenTransfer(part));
            case SMART_CONTRACT -> summary.setSmartContract(smartContract(part));
            case CONTRACT_CALL -> summary.setContractCall(contractCall(part));
            default -> { } // the peer's mempool summaries carry no payload for the other types
        }
        return summary;
    }

    private static TransactionSender sender(SignedPart part) {
        return new TransactionSender(part.senderAddress(), part.nonce());
    }

    private static TransactionSponsor sponsor(SignedPart part) {
        return part.sponsored() ? new TransactionSponsor(part.sponsorAddress(), part.sponsorNonce()) : null;
    }

    private static TokenTransferSummary tokenTransfer(SignedPart part) {
        TokenTransferPayload payload = (TokenTransferPayload) part.payload();
        return new TokenTransferSummary(payload.getRecipientAddress(), payload.getAmount(),
                new TransferMemo(payload.getMemo(), memoText(payload.getMemo())));
    }

    private static SmartContractSummary smartContract(SignedPart part) {
        SmartContractPayload payload = (SmartContractPayload) part.payload();
        return new SmartContractSummary(payload.getClarityVersion(), payload.getContractId());
    }

    private static ContractCallSummary contractCall(SignedPart part) {
        return new ContractCallSummary(part.call().contractId(), part.call().functionName());
    }

    /** A memo as text, as the peer shows it: its bytes read as UTF-8, NUL characters removed. */
    static String memoText(String hex) {
        return new String(Hex.decode(hex), StandardCharsets.UTF_8).replace("\u0000", "");
    }
}
