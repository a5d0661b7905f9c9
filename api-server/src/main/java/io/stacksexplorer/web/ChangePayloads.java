package io.stacksexplorer.web;

import io.stacksexplorer.query.AddressTxRow;
import io.stacksexplorer.query.BlockRow;
import io.stacksexplorer.query.ChangeQueries;
import io.stacksexplorer.query.MempoolTxRow;
import io.stacksexplorer.query.TransactionLookup;
import io.stacksexplorer.query.TransactionQueries;
import io.stacksexplorer.server.model.AddressEventCounts;
import io.stacksexplorer.server.model.AddressTransactionUpdate;
import io.stacksexplorer.server.model.AssetEventCounts;
import io.stacksexplorer.server.model.Microblock;
import io.stacksexplorer.server.model.Transaction;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a logged change looks like to a subscriber: the same models the HTTP routes answer with
 * (a {@code Block} as {@code /extended/v2/blocks}, a {@code Transaction} as
 * {@code /extended/v1/tx/multiple}), read now, through the same query facades. A change whose subject
 * is not served (a mempool delivery of a transaction already mined) yields nothing.
 */
@Singleton
public class ChangePayloads {

    /** Event names, as the peer's WebSocket notifications name them. */
    public static final String BLOCK = "block";
    public static final String MEMPOOL = "mempool";
    public static final String MICROBLOCK = "microblock";
    public static final String TX_UPDATE = "tx_update";
    public static final String ADDRESS_TX_UPDATE = "address_tx_update";

    /** Events per transaction in a notification: the lookup route's default page. */
    private static final int EVENT_LIMIT = 20;
    private static final String PENDING = "pending";

    /**
     * One notification's method and payload; {@code key} is the tx id ({@code tx_update}) or the
     * address ({@code address_tx_update}) it is for, null for {@code block} and {@code mempool}.
     */
    public record Payload(String method, String key, Object params) {
    }

    private final TransactionQueries transactions;
    private final ChangeQueries changes;
    private final TransactionMapper mapper;

    ChangePayloads(TransactionQueries transactions, ChangeQueries changes,
                   TransactionMapper mapper) {
        this.transactions = transactions;
        this.changes = changes;
        this.mapper = mapper;
    }

    /**
     * The notifications of one change, in a fixed order (the order a resume relies on), showing the
     * subject as the change left it, so that a client resuming later sees each step:
     * <ul>
     *   <li>{@code block}: the block that joined the canonical chain ({@code canonical} false if a
     *       later reorg took it off again: a resumed stream is the live stream, change for change);</li>
     *   <li>{@code mempool}: the transaction as it entered the mempool ({@code pending}), the first
     *       time it did; for the mempool, the transaction and each address it concerns;</li>
     *   <li>{@code tx} with a block: the transaction as that block mined it;</li>
     *   <li>{@code tx} without a block (dropped, or taken off the chain by a reorg): as it is now.</li>
     * </ul>
     */
    public List<Payload> of(ChangeQueries.Change change) {
        return switch (change.kind()) {
            case "block" -> changes.block(change.indexBlockHash())
                    .map(b -> List.of(new Payload(BLOCK, null, BlocksController.toApi(b))))
                    .orElse(List.of());
            case "mempool" -> entered(change);
            case "tx" -> change.indexBlockHash() != null ? mined(change) : current(change.txId());
            case "microblock" -> changes.block(change.indexBlockHash())
                    .map(parent -> List.of(new Payload(MICROBLOCK, null, microblock(change.microblock(), parent))))
                    .orElse(List.of());
            default -> List.of();
        };
    }

    /**
     * A microblock as it arrived: unanchored ({@code block_hash} null; the anchor block that settles
     * it has its own change), its header as the node sent it, its transactions, and whether its parent
     * is canonical and it was not orphaned as known now (as a block's {@code canonical}).
     */
    private Microblock microblock(ChangeQueries.MicroblockHeader header, BlockRow parent) {
        ChangeQueries.MicroblockTxs txs = changes.microblockTxs(header.hash());
        // The node sends the parent's burn block with the microblocks; the parent block's own otherwise.
        String burnHash = header.parentBurnBlockHash() != null ? header.parentBurnBlockHash() : parent.burnBlockHash();
        long burnHeight = header.parentBurnBlockHeight() != null ? header.parentBurnBlockHeight()
                : parent.burnBlockHeight();
        long burnTime = header.parentBurnBlockTime() != null ? header.parentBurnBlockTime() : parent.burnBlockTime();
        return new Microblock(parent.canonical(), txs.microblockCanonical(), header.hash(), header.sequence(),
                header.parentHash(), parent.blockHeight() + 1, parent.blockHeight(), parent.blockHash(), burnHash,
                burnTime, ApiTime.iso(burnTime), burnHeight, null, txs.txIds());
    }

    private List<Payload> entered(ChangeQueries.Change change) {
        String txId = change.txId();
        Optional<MempoolTxRow> row = changes.mempoolRow(txId);
        // No row: the delivery was ignored (mined before it arrived); an earlier change: sent then.
        if (row.isEmpty() || changes.enteredMempoolBefore(txId, change.position())) {
            return List.of();
        }
        Transaction tx = mapper.pending(row.get(), PENDING);
        List<Payload> out = new ArrayList<>();
        out.add(new Payload(MEMPOOL, null, tx));
        out.add(new Payload(TX_UPDATE, txId, tx));
        for (String principal : pendingPrincipals(tx)) {
            out.add(new Payload(ADDRESS_TX_UPDATE, principal,
                    new AddressTransactionUpdate(principal, txId, tx.getTxType(), tx.getTxStatus(), tx)));
        }
        return out;
    }

    private List<Payload> mined(ChangeQueries.Change change) {
        String txId = change.txId();
        Optional<ChangeQueries.MinedTx> mined = changes.minedIn(txId, change.indexBlockHash(), EVENT_LIMIT);
        if (mined.isEmpty()) {
            return List.of();
        }
        Transaction tx = mapper.confirmed(mined.get().tx(), mined.get().events());
        List<Payload> out = new ArrayList<>();
        out.add(new Payload(TX_UPDATE, txId, tx));
        for (AddressTxRow a : changes.principalsIn(change.indexBlockHash(), txId)) {
            out.add(new Payload(ADDRESS_TX_UPDATE, a.principal(), minedFor(a, tx)));
        }
        return out;
    }

    /** A transaction whose state changed without a block of its own: dropped, or orphaned. */
    private List<Payload> current(String txId) {
        TransactionLookup lookup = transactions.lookup(List.of(txId), false, EVENT_LIMIT, 0).get(txId);
        if (lookup instanceof TransactionLookup.Mined mined) {
            // Mined again elsewhere: that block's own change announces it.
            return List.of(new Payload(TX_UPDATE, txId, mapper.confirmed(mined.tx(), mined.events())));
        }
        if (lookup instanceof TransactionLookup.InMempool pending) {
            Transaction tx = mapper.pending(pending.tx(), pending.status());
            List<Payload> out = new ArrayList<>();
            out.add(new Payload(TX_UPDATE, txId, tx));
            if (!pending.tx().pruned()) {
                // Back in the mempool after a reorg: pending for its addresses again.
                for (String principal : pendingPrincipals(tx)) {
                    out.add(new Payload(ADDRESS_TX_UPDATE, principal,
                            new AddressTransactionUpdate(principal, txId, tx.getTxType(), tx.getTxStatus(), tx)));
                }
            }
            return out;
        }
        return List.of();
    }

    private static AddressTransactionUpdate minedFor(AddressTxRow a, Transaction tx) {
        AddressTransactionUpdate update = new AddressTransactionUpdate(a.principal(), tx.getTxId(), tx.getTxType(),
                tx.getTxStatus(), tx);
        update.setStxSent(a.stxSent().toPlainString());
        update.setStxReceived(a.stxReceived().toPlainString());
        update.setEvents(new AddressEventCounts(
                new AssetEventCounts(a.stxTransfer(), a.stxMint(), a.stxBurn()),
                new AssetEventCounts(a.ftTransfer(), a.ftMint(), a.ftBurn()),
                new AssetEventCounts(a.nftTransfer(), a.nftMint(), a.nftBurn())));
        return update;
    }

    /**
     * Whom a pending transaction concerns, as the address mempool route counts them: sender,
     * sponsor, token-transfer recipient, deployed or called contract (sorted, each once).
     */
    private static Set<String> pendingPrincipals(Transaction tx) {
        Set<String> out = new TreeSet<>();
        out.add(tx.getSenderAddress());
        if (tx.getSponsorAddress() != null) {
            out.add(tx.getSponsorAddress());
        }
        if (tx.getTokenTransfer() != null) {
            out.add(tx.getTokenTransfer().getRecipientAddress());
        }
        if (tx.getSmartContract() != null) {
            out.add(tx.getSmartContract().getContractId());
        }
        if (tx.getContractCall() != null) {
            out.add(tx.getContractCall().getContractId());
        }
        return out;
    }
}
