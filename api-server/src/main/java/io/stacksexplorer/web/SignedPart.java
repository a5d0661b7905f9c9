package io.stacksexplorer.web;

import io.micronaut.core.annotation.Nullable;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.PostConditionPrincipal;
import io.stacksexplorer.codec.tx.SpendingCondition;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.query.TxRow;
import io.stacksexplorer.server.model.AnchorMode;
import io.stacksexplorer.server.model.ClarityValueHex;
import io.stacksexplorer.server.model.CoinbasePayload;
import io.stacksexplorer.server.model.ConfirmedTransaction;
import io.stacksexplorer.server.model.ContractCallArgument;
import io.stacksexplorer.server.model.ContractCallPayload;
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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Everything the sender signed, decoded from the raw bytes once and rendered (payload, post conditions,
 * modes, addresses as c32check text). Immutable by convention: the payload and post-condition models in
 * here are shared by every answer that serves this transaction, so nothing may mutate them; each answer
 * gets a {@link Transaction} of its own for the per-row columns. Contract-call argument names and types
 * come from the called contract's ABI, which a reorg can change, so they are joined per request.
 */
record SignedPart(long nonce, String fee, String senderAddress, boolean sponsored,
                  @Nullable String sponsorAddress, @Nullable Long sponsorNonce,
                  PostConditionMode postConditionMode, List<PostCondition> postConditions, AnchorMode anchorMode,
                  TransactionType txType, @Nullable Object payload, @Nullable Call call) {

    /**
     * A contract call before its ABI is known, and the payload last rendered for it with the ABI it
     * was rendered with. Every page that shows the call builds its payload from the same two values,
     * so a page served again takes the payload it had (argument names and types come from the ABI
     * and one model per argument: about 6 % of an address page's CPU samples). ABIs are compared by
     * identity: {@link Renderings#abi} hands out one parsed ABI per ABI text, and {@link Optional#empty()}
     * is one instance. A payload is shared by the answers that show it, like the other models here.
     */
    static final class Call {

        private record Rendered(Optional<ContractAbi> abi, ContractCallPayload payload) {
        }

        private final String contractId;
        private final String functionName;
        private final List<Arg> args;
        /** Replaced whole, so a reader sees an ABI with its own payload. */
        private volatile Rendered last;

        Call(String contractId, String functionName, List<Arg> args) {
            this.contractId = contractId;
            this.functionName = functionName;
            this.args = args;
        }

        String contractId() {
            return contractId;
        }

        String functionName() {
            return functionName;
        }

        List<Arg> args() {
            return args;
        }
    }

    /** One argument: serialized value, its {@code repr}, and the type read off the value itself. */
    record Arg(String hex, String repr, String typeSignature) {
    }

    /**
     * A new {@code Transaction} with this signed part; {@code abis} maps called contracts to ABIs. The id is
     * the row's: the transaction a Bitcoin-originated operation stands for is served under the node's
     * txid, not the hash of the bytes built for it.
     */
    Transaction newTransaction(String rowTxId, String status, Map<String, Optional<ContractAbi>> abis) {
        Transaction tx = new Transaction(rowTxId, nonce, fee, senderAddress, sponsored, postConditionMode,
                postConditions, anchorMode, TransactionStatus.fromValue(status), txType, null, null);
        return fill(tx, TRANSACTION, abis);
    }

    /**
     * A new {@code ConfirmedTransaction} (the shape inside an address history) with this signed part and
     * the given row columns, built directly: copying a {@code Transaction} property by property through
     * bean introspection was a fifth of an address-history page's CPU time.
     */
    ConfirmedTransaction newConfirmed(String status, TxRow row, ClarityValueHex txResult,
                                      Map<String, Optional<ContractAbi>> abis) {
        ConfirmedTransaction tx = new ConfirmedTransaction(row.txId(), nonce, fee, senderAddress, sponsored,
                postConditionMode, postConditions, anchorMode, TransactionStatus.fromValue(status), txType,
                row.blockHash(), row.blockHeight(), row.blockTime(), ApiTime.iso(row.blockTime()),
                row.burnBlockHeight(), row.burnBlockTime(), ApiTime.iso(row.burnBlockTime()),
                row.parentBurnBlockTime(), ApiTime.iso(row.parentBurnBlockTime()), row.canonical(), row.txIndex(),
                txResult, row.eventCount(), row.parentBlockHash(), row.isUnanchored(), row.microblockHash(),
                row.microblockSequence(), row.microblockCanonical(), row.executionCostReadCount(),
                row.executionCostReadLength(), row.executionCostRuntime(), row.executionCostWriteCount(),
                row.executionCostWriteLength(), row.vmError(), List.of());
        return fill(tx, CONFIRMED, abis);
    }

    /**
     * The setters of one served shape for what its constructor does not take. {@code Transaction} and
     * {@code ConfirmedTransaction} are generated apart from each other with no common type, so the one
     * dispatch below reaches either through these.
     */
    private record Shape<T>(BiConsumer<T, String> sponsorAddress, BiConsumer<T, Long> sponsorNonce,
                            BiConsumer<T, TokenTransferPayload> tokenTransfer,
                            BiConsumer<T, SmartContractPayload> smartContract,
                            BiConsumer<T, PoisonMicroblockPayload> poisonMicroblock,
                            BiConsumer<T, CoinbasePayload> coinbase,
                            BiConsumer<T, TenureChangePayload> tenureChange,
                            BiConsumer<T, ContractCallPayload> contractCall) {
    }

    private static final Shape<Transaction> TRANSACTION = new Shape<>(Transaction::setSponsorAddress,
            Transaction::setSponsorNonce, Transaction::setTokenTransfer, Transaction::setSmartContract,
            Transaction::setPoisonMicroblock, Transaction::setCoinbasePayload, Transaction::setTenureChangePayload,
            Transaction::setContractCall);

    private static final Shape<ConfirmedTransaction> CONFIRMED = new Shape<>(
            ConfirmedTransaction::setSponsorAddress, ConfirmedTransaction::setSponsorNonce,
            ConfirmedTransaction::setTokenTransfer, ConfirmedTransaction::setSmartContract,
            ConfirmedTransaction::setPoisonMicroblock, ConfirmedTransaction::setCoinbasePayload,
            ConfirmedTransaction::setTenureChangePayload, ConfirmedTransaction::setContractCall);

    /** Sets the sponsor, the payload of this transaction's type and the contract call on {@code tx}. */
    private <T> T fill(T tx, Shape<T> shape, Map<String, Optional<ContractAbi>> abis) {
        if (sponsored) {
            shape.sponsorAddress().accept(tx, sponsorAddress);
            shape.sponsorNonce().accept(tx, sponsorNonce);
        }
        if (payload instanceof TokenTransferPayload transfer) {
            shape.tokenTransfer().accept(tx, transfer);
        } else if (payload instanceof SmartContractPayload contract) {
            shape.smartContract().accept(tx, contract);
        } else if (payload instanceof PoisonMicroblockPayload poison) {
            shape.poisonMicroblock().accept(tx, poison);
        } else if (payload instanceof CoinbasePayload coinbase) {
            shape.coinbase().accept(tx, coinbase);
        } else if (payload instanceof TenureChangePayload change) {
            shape.tenureChange().accept(tx, change);
        }
        if (call != null) {
            shape.contractCall().accept(tx, contractCall(abis.getOrDefault(call.contractId(), Optional.empty())));
        }
        return tx;
    }

    /** The payload with argument names and types from the called contract's ABI, when it is known. */
    private ContractCallPayload contractCall(Optional<ContractAbi> abi) {
        Call.Rendered last = call.last;
        if (last == null || last.abi() != abi) {
            last = new Call.Rendered(abi, newContractCall(abi));
            call.last = last;
        }
        return last.payload();
    }

    private ContractCallPayload newContractCall(Optional<ContractAbi> abi) {
        Optional<ContractAbi.Function> function = abi
                .flatMap(a -> a.function(call.functionName()))
                .filter(fn -> fn.argNames().size() == call.args().size());
        ContractCallPayload out = new ContractCallPayload(call.contractId(), call.functionName(),
                function.map(ContractAbi.Function::signature).orElse(""));
        List<ContractCallArgument> args = new ArrayList<>(call.args().size());
        for (int i = 0; i < call.args().size(); i++) {
            Arg arg = call.args().get(i);
            int index = i;
            args.add(new ContractCallArgument(arg.hex(), arg.repr(),
                    function.map(fn -> fn.argNames().get(index)).orElse(""),
                    function.map(fn -> fn.argTypes().get(index)).orElse(arg.typeSignature())));
        }
        out.setFunctionArgs(args);
        return out;
    }

    // ------------------------------------------------------------------------------------------

    static SignedPart decode(String rawTx) {
        StacksTransaction decoded = StacksTransaction.decodeHex(rawTx);
        List<PostCondition> postConditions = new ArrayList<>();
        for (io.stacksexplorer.codec.tx.PostCondition pc : decoded.postConditions()) {
            postConditions.add(postCondition(pc));
        }
        TransactionPayload payload = decoded.payload();
        Object payloadModel = null;
        Call call = null;
        // Built by the write path for a Bitcoin-originated operation (see ingest.BurnchainOperations).
        boolean bitcoinOperation = decoded.origin() instanceof SpendingCondition.SingleSig origin && origin.isUnsigned();
        if (payload instanceof TransactionPayload.TokenTransfer transfer) {
            // A transfer_stx's memo is not the Stacks transfer's 34 bytes: served as "0x", as the peer does.
            payloadModel = new TokenTransferPayload(transfer.recipientAddress(), transfer.amount().toString(),
                    bitcoinOperation ? "0x" : transfer.memo());
        } else if (payload instanceof TransactionPayload.SmartContract contract) {
            payloadModel = new SmartContractPayload(
                    decoded.smartContractId().map(Object::toString).orElseThrow(), contract.sourceCode(),
                    contract.clarityVersion().isPresent() ? contract.clarityVersion().getAsInt() : null);
        } else if (payload instanceof TransactionPayload.ContractCall contractCall) {
            List<Arg> args = new ArrayList<>(contractCall.functionArgs().size());
            for (ClarityValue value : contractCall.functionArgs()) {
                args.add(new Arg(value.serializeHex(), value.repr(), value.typeSignature()));
            }
            call = new Call(contractCall.contract().toString(), contractCall.functionName(), List.copyOf(args));
        } else if (payload instanceof TransactionPayload.PoisonMicroblock poison) {
            payloadModel = new PoisonMicroblockPayload(poison.header1().serialized(), poison.header2().serialized());
        } else if (payload instanceof TransactionPayload.Coinbase coinbase) {
            CoinbasePayload cb = new CoinbasePayload(coinbase.payload(),
                    coinbase.altRecipient().map(Object::toString).orElse(null));
            coinbase.vrfProof().ifPresent(cb::setVrfProof);
            payloadModel = cb;
        } else if (payload instanceof TransactionPayload.TenureChange change) {
            payloadModel = new TenureChangePayload(change.tenureConsensusHash(),
                    change.prevTenureConsensusHash(), change.burnViewConsensusHash(), change.previousTenureEnd(),
                    change.previousTenureBlocks(), TenureChangeCause.fromValue(change.cause().apiName()),
                    change.pubkeyHash());
        }
        boolean sponsored = decoded.isSponsored();
        return new SignedPart(decoded.nonce().longValueExact(), decoded.fee().toString(),
                decoded.senderAddress().toString(), sponsored,
                sponsored ? decoded.sponsorAddress().map(Object::toString).orElse(null) : null,
                sponsored ? decoded.sponsorNonce().map(n -> n.longValueExact()).orElse(null) : null,
                PostConditionMode.fromValue(decoded.postConditionMode().apiName()),
                java.util.Collections.unmodifiableList(postConditions),
                AnchorMode.fromValue(decoded.anchorMode().apiName()), TransactionType.fromValue(payload.txType()),
                payloadModel, call);
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
        } else if (pc instanceof io.stacksexplorer.codec.tx.PostCondition.NonFungible nft) {
            out = new PostCondition(PostConditionType.NON_FUNGIBLE, principal,
                    PostConditionCode.fromValue(nft.conditionCode().apiName()));
            out.setAsset(asset(nft.asset().contract(), nft.asset().assetName()));
            out.setAssetValue(new ClarityValueHex(nft.assetValue().serializeHex(), nft.assetValue().repr()));
        } else if (pc instanceof io.stacksexplorer.codec.tx.PostCondition.Staking staking) {
            out = new PostCondition(PostConditionType.STAKING, principal,
                    PostConditionCode.fromValue(staking.conditionCode().apiName()));
            out.setAmount(staking.amount().toString());
        } else {
            io.stacksexplorer.codec.tx.PostCondition.Pox pox = (io.stacksexplorer.codec.tx.PostCondition.Pox) pc;
            out = new PostCondition(PostConditionType.POX, principal,
                    PostConditionCode.fromValue(pox.conditionCode().apiName()));
        }
        return out;
    }

    private static PostConditionAsset asset(ContractId contract, String assetName) {
        return new PostConditionAsset(contract.address().toString(), contract.name(), assetName);
    }
}
