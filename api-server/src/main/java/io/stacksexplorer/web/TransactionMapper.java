package io.stacksexplorer.web;

import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.PostConditionPrincipal;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.query.ContractQueries;
import io.stacksexplorer.query.EventRow;
import io.stacksexplorer.query.MempoolTxRow;
import io.stacksexplorer.query.TxRow;
import io.stacksexplorer.server.model.AnchorMode;
import io.stacksexplorer.server.model.ClarityValueHex;
import io.stacksexplorer.server.model.CoinbasePayload;
import io.stacksexplorer.server.model.ConfirmedTransaction;
import io.stacksexplorer.server.model.ContractCallArgument;
import io.stacksexplorer.server.model.ContractCallPayload;
import io.stacksexplorer.server.model.MempoolTransaction;
import io.stacksexplorer.server.model.PoisonMicroblockPayload;
import io.stacksexplorer.server.model.PostCondition;
import io.stacksexplorer.server.model.PostConditionAsset;
import io.stacksexplorer.server.model.PostConditionCode;
import io.stacksexplorer.server.model.PostConditionMode;
import io.stacksexplorer.server.model.PostConditionPrincipalType;
import io.stacksexplorer.server.model.PostConditionType;
import io.stacksexplorer.server.model.SmartContractPayload;
import io.stacksexplorer.server.model.TenureChangeCause;
import io.stacksexplorer.server.model.TenureChangePayload;
import io.stacksexplorer.server.model.TokenTransferPayload;
import io.stacksexplorer.server.model.Transaction;
import io.stacksexplorer.server.model.TransactionStatus;
import io.stacksexplorer.server.model.TransactionType;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Assembles API transactions from stored rows: block, result, cost and event columns from the row,
 * everything the sender signed (payload, post conditions, modes) decoded from the raw bytes.
 */
@Singleton
class TransactionMapper {

    private final ContractQueries contracts;

    TransactionMapper(ContractQueries contracts) {
        this.contracts = contracts;
    }

    /** The confirmed shape, as a lookup result. */
    Transaction confirmed(TxRow row, List<EventRow> events) {
        Transaction tx = signedPart(StacksTransaction.decodeHex(row.rawTx()), row.txStatus());
        tx.setBlockHash(row.blockHash());
        tx.setBlockHeight(row.blockHeight());
        tx.setBlockTime(row.blockTime());
        tx.setBlockTimeIso(ApiTime.iso(row.blockTime()));
        tx.setBurnBlockHeight(row.burnBlockHeight());
        tx.setBurnBlockTime(row.burnBlockTime());
        tx.setBurnBlockTimeIso(ApiTime.iso(row.burnBlockTime()));
        tx.setParentBurnBlockTime(row.parentBurnBlockTime());
        tx.setParentBurnBlockTimeIso(ApiTime.iso(row.parentBurnBlockTime()));
        tx.setCanonical(row.canonical());
        tx.setTxIndex(row.txIndex());
        tx.setTxResult(EventMapper.clarity(row.rawResult()));
        tx.setEventCount(row.eventCount());
        tx.setParentBlockHash(row.parentBlockHash());
        tx.setIsUnanchored(row.isUnanchored());
        tx.setMicroblockHash(row.microblockHash());
        tx.setMicroblockSequence(row.microblockSequence());
        tx.setMicroblockCanonical(row.microblockCanonical());
        tx.setExecutionCostReadCount(row.executionCostReadCount());
        tx.setExecutionCostReadLength(row.executionCostReadLength());
        tx.setExecutionCostRuntime(row.executionCostRuntime());
        tx.setExecutionCostWriteCount(row.executionCostWriteCount());
        tx.setExecutionCostWriteLength(row.executionCostWriteLength());
        tx.setEvents(events.stream().map(EventMapper::toApi).toList());
        return tx;
    }

    /** The confirmed shape inside an address history: events are counted, not listed. */
    ConfirmedTransaction confirmedInHistory(TxRow row) {
        return ModelCopy.copy(confirmed(row, List.of()), ConfirmedTransaction.class);
    }

    /** The mempool shape, as a lookup result; {@code status} is what the lookup serves. */
    Transaction pending(MempoolTxRow row, String status) {
        Transaction tx = signedPart(StacksTransaction.decodeHex(row.rawTx()), status);
        tx.setReceiptTime(row.receiptTime());
        tx.setReceiptTimeIso(ApiTime.iso(row.receiptTime()));
        return tx;
    }

    MempoolTransaction pendingInList(MempoolTxRow row) {
        return ModelCopy.copy(pending(row, row.txStatus()), MempoolTransaction.class);
    }

    // ------------------------------------------------------------------------------------------

    private Transaction signedPart(StacksTransaction decoded, String status) {
        List<PostCondition> postConditions = new ArrayList<>();
        for (io.stacksexplorer.codec.tx.PostCondition pc : decoded.postConditions()) {
            postConditions.add(postCondition(pc));
        }
        TransactionPayload payload = decoded.payload();
        Transaction tx = new Transaction(decoded.txId(), decoded.nonce().longValueExact(),
                decoded.fee().toString(), decoded.senderAddress().toString(), decoded.isSponsored(),
                PostConditionMode.fromValue(decoded.postConditionMode().apiName()), postConditions,
                AnchorMode.fromValue(decoded.anchorMode().apiName()), TransactionStatus.fromValue(status),
                TransactionType.fromValue(payload.txType()));
        if (decoded.isSponsored()) {
            tx.setSponsorAddress(decoded.sponsorAddress().map(Object::toString).orElse(null));
            tx.setSponsorNonce(decoded.sponsorNonce().map(n -> n.longValueExact()).orElse(null));
        }
        if (payload instanceof TransactionPayload.TokenTransfer transfer) {
            tx.setTokenTransfer(new TokenTransferPayload(transfer.recipientAddress(), transfer.amount().toString(),
                    transfer.memo()));
        } else if (payload instanceof TransactionPayload.SmartContract contract) {
            tx.setSmartContract(new SmartContractPayload(
                    decoded.smartContractId().map(Object::toString).orElseThrow(), contract.sourceCode(),
                    contract.clarityVersion().isPresent() ? contract.clarityVersion().getAsInt() : null));
        } else if (payload instanceof TransactionPayload.ContractCall call) {
            tx.setContractCall(contractCall(call));
        } else if (payload instanceof TransactionPayload.PoisonMicroblock poison) {
            tx.setPoisonMicroblock(new PoisonMicroblockPayload(poison.header1().serialized(),
                    poison.header2().serialized()));
        } else if (payload instanceof TransactionPayload.Coinbase coinbase) {
            CoinbasePayload cb = new CoinbasePayload(coinbase.payload(),
                    coinbase.altRecipient().map(Object::toString).orElse(null));
            coinbase.vrfProof().ifPresent(cb::setVrfProof);
            tx.setCoinbasePayload(cb);
        } else if (payload instanceof TransactionPayload.TenureChange change) {
            tx.setTenureChangePayload(new TenureChangePayload(change.tenureConsensusHash(),
                    change.prevTenureConsensusHash(), change.burnViewConsensusHash(), change.previousTenureEnd(),
                    change.previousTenureBlocks(), TenureChangeCause.fromValue(change.cause().apiName()),
                    change.pubkeyHash()));
        }
        return tx;
    }

    /** Argument names and types come from the called contract's ABI when it is known. */
    private ContractCallPayload contractCall(TransactionPayload.ContractCall call) {
        Optional<ContractAbi.Function> function = contracts.abi(call.contract().toString())
                .flatMap(ContractAbi::parse)
                .flatMap(abi -> abi.function(call.functionName()))
                .filter(fn -> fn.argNames().size() == call.functionArgs().size());
        ContractCallPayload payload = new ContractCallPayload(call.contract().toString(), call.functionName(),
                function.map(ContractAbi.Function::signature).orElse(""));
        List<ContractCallArgument> args = new ArrayList<>();
        for (int i = 0; i < call.functionArgs().size(); i++) {
            ClarityValue value = call.functionArgs().get(i);
            int index = i;
            args.add(new ContractCallArgument(value.serializeHex(), value.repr(),
                    function.map(fn -> fn.argNames().get(index)).orElse(""),
                    function.map(fn -> fn.argTypes().get(index)).orElseGet(value::typeSignature)));
        }
        payload.setFunctionArgs(args);
        return payload;
    }

    private static PostCondition postCondition(io.stacksexplorer.codec.tx.PostCondition pc) {
        io.stacksexplorer.server.model.PostConditionPrincipal principal =
                new io.stacksexplorer.server.model.PostConditionPrincipal(
                        PostConditionPrincipalType.fromValue(pc.principal().typeId()));
        if (pc.principal() instanceof PostConditionPrincipal.Standard standard) {
            principal.setAddress(standard.address().toString());
        } else if (pc.principal() instanceof PostConditionPrincipal.Contract contract) {
            principal.setAddress(contract.contract().address().toString());
            principal.setContractName(contract.contract().name());
        }
        PostCondition out;
        if (pc instanceof io.stacksexplorer.codec.tx.PostCondition.Stx stx) {
            out = new PostCondition(PostConditionType.STX, principal,
                    PostConditionCode.fromValue(stx.conditionCode().apiName()));
            out.setAmount(stx.amount().toString());
        } else if (pc instanceof io.stacksexplorer.codec.tx.PostCondition.Fungible ft) {
            out = new PostCondition(PostConditionType.FUNGIBLE, principal,
                    PostConditionCode.fromValue(ft.conditionCode().apiName()));
            out.setAmount(ft.amount().toString());
            out.setAsset(asset(ft.asset().contract(), ft.asset().assetName()));
        } else {
            io.stacksexplorer.codec.tx.PostCondition.NonFungible nft =
                    (io.stacksexplorer.codec.tx.PostCondition.NonFungible) pc;
            out = new PostCondition(PostConditionType.NON_FUNGIBLE, principal,
                    PostConditionCode.fromValue(nft.conditionCode().apiName()));
            out.setAsset(asset(nft.asset().contract(), nft.asset().assetName()));
            out.setAssetValue(new ClarityValueHex(nft.assetValue().serializeHex(), nft.assetValue().repr()));
        }
        return out;
    }

    private static PostConditionAsset asset(ContractId contract, String assetName) {
        return new PostConditionAsset(contract.address().toString(), contract.name(), assetName);
    }
}
