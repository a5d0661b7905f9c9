package io.stacksexplorer.web;

import io.stacksexplorer.query.ContractQueries;
import io.stacksexplorer.query.EventRow;
import io.stacksexplorer.query.MempoolTxRow;
import io.stacksexplorer.query.TxRow;
import io.stacksexplorer.server.model.ConfirmedTransaction;
import io.stacksexplorer.server.model.MempoolTransaction;
import io.stacksexplorer.server.model.Transaction;
import jakarta.inject.Singleton;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Assembles API transactions from stored rows: block, result, cost and event columns from the row,
 * everything the sender signed from the raw bytes, decoded once ({@link Renderings#signedPart}).
 * A page of rows is rendered as one {@link Batch}, which reads the ABIs of all called contracts in
 * one query instead of one query per contract call, or takes them from an address history's page,
 * which names them ({@link io.stacksexplorer.query.AddressQueries.History}).
 */
@Singleton
class TransactionMapper {

    private final ContractQueries contracts;

    TransactionMapper(ContractQueries contracts) {
        this.contracts = contracts;
    }

    /** Decodes the given raw transactions (hex) and reads the ABIs their contract calls need. */
    Batch batch(Collection<String> rawTxs) {
        Map<String, SignedPart> parts = decode(rawTxs);
        Set<String> called = new LinkedHashSet<>();
        for (SignedPart part : parts.values()) {
            if (part.call() != null) {
                called.add(part.call().contractId());
            }
        }
        return new Batch(parts, called.isEmpty() ? Map.of() : parsed(contracts.abis(called)));
    }

    /** Decodes the given raw transactions (hex); {@code abis} holds the ABI JSON of the contracts they call. */
    Batch batch(Collection<String> rawTxs, Map<String, String> abis) {
        return new Batch(decode(rawTxs), parsed(abis));
    }

    private static Map<String, SignedPart> decode(Collection<String> rawTxs) {
        Map<String, SignedPart> parts = new HashMap<>();
        for (String raw : rawTxs) {
            parts.computeIfAbsent(raw, Renderings::signedPart);
        }
        return parts;
    }

    private static Map<String, Optional<ContractAbi>> parsed(Map<String, String> abiJson) {
        Map<String, Optional<ContractAbi>> abis = new HashMap<>();
        abiJson.forEach((contract, json) -> abis.put(contract, Renderings.abi(json)));
        return abis;
    }

    /** The confirmed shape, as a lookup result. */
    Transaction confirmed(TxRow row, List<EventRow> events) {
        return batch(List.of(row.rawTx())).confirmed(row, events);
    }

    /** The confirmed shape inside an address history: events are counted, not listed. */
    ConfirmedTransaction confirmedInHistory(TxRow row) {
        return batch(List.of(row.rawTx())).confirmedInHistory(row);
    }

    /** The mempool shape, as a lookup result; {@code status} is what the lookup serves. */
    Transaction pending(MempoolTxRow row, String status) {
        return batch(List.of(row.rawTx())).pending(row, status);
    }

    MempoolTransaction pendingInList(MempoolTxRow row) {
        return batch(List.of(row.rawTx())).pendingInList(row);
    }

    /** Rows of one answer, with their signed parts decoded and the ABIs of called contracts read. */
    static final class Batch {

        private final Map<String, SignedPart> parts;
        private final Map<String, Optional<ContractAbi>> abis;

        private Batch(Map<String, SignedPart> parts, Map<String, Optional<ContractAbi>> abis) {
            this.parts = parts;
            this.abis = abis;
        }

        Transaction confirmed(TxRow row, List<EventRow> events) {
            Transaction tx = part(row.rawTx()).newTransaction(row.txId(), row.txStatus(), abis);
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
            tx.setTxResult(Renderings.clarity(row.rawResult()));
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
            tx.setVmError(row.vmError());
            tx.setEvents(events.stream().map(EventMapper::toApi).toList());
            return tx;
        }

        ConfirmedTransaction confirmedInHistory(TxRow row) {
            return part(row.rawTx()).newConfirmed(row.txStatus(), row, Renderings.clarity(row.rawResult()), abis);
        }

        Transaction pending(MempoolTxRow row, String status) {
            Transaction tx = part(row.rawTx()).newTransaction(row.txId(), status, abis);
            tx.setReceiptTime(row.receiptTime());
            tx.setReceiptTimeIso(ApiTime.iso(row.receiptTime()));
            tx.setReplacedByTxId(row.replacedByTxId());
            return tx;
        }

        MempoolTransaction pendingInList(MempoolTxRow row) {
            return ModelCopy.copy(pending(row, row.txStatus()), MempoolTransaction.class);
        }

        private SignedPart part(String rawTx) {
            SignedPart part = parts.get(rawTx);
            if (part == null) {
                throw new IllegalArgumentException("row not in this batch");
            }
            return part;
        }
    }
}
