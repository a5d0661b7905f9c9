package io.stacksexplorer.http;

import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the API must answer about the demo chain, computed straight from the generated input
 * (blocks and raw transactions), independently of the database and the write path.
 */
final class DemoChainExpectations {

    /** One mined transaction with its block, in API order keys. */
    record Mined(NewBlock block, NewTransaction tx, StacksTransaction decoded) {
        long height() {
            return block.height();
        }

        int microblockSequence() {
            return tx.inMicroblock() ? tx.microblockSequence() : NewTransaction.ANCHOR_BLOCK_SEQUENCE;
        }
    }

    /** Newest first: block height, microblock sequence, transaction index, all descending. */
    static final Comparator<Mined> NEWEST_FIRST = Comparator.comparingLong(Mined::height)
            .thenComparingInt(Mined::microblockSequence)
            .thenComparingInt(m -> m.tx().txIndex())
            .reversed();

    final DemoChain chain;
    final Map<String, Mined> minedById = new HashMap<>();
    final List<Mined> mined = new ArrayList<>();

    DemoChainExpectations(DemoChain chain) {
        this.chain = chain;
        for (NewBlock block : chain.blocks()) {
            for (NewTransaction tx : block.transactions()) {
                Mined m = new Mined(block, tx, StacksTransaction.decodeHex(tx.rawTx()));
                mined.add(m);
                minedById.put(tx.txId(), m);
            }
        }
    }

    /** Transactions that involve {@code principal} (sender, sponsor, recipient, contract, asset events), newest first. */
    List<Mined> historyOf(String principal) {
        List<Mined> out = new ArrayList<>();
        for (Mined m : mined) {
            if (involves(m, principal)) {
                out.add(m);
            }
        }
        out.sort(NEWEST_FIRST);
        return out;
    }

    static boolean involves(Mined m, String principal) {
        if (directParties(m.decoded()).contains(principal)) {
            return true;
        }
        for (NewEvent e : m.tx().events()) {
            if (e instanceof NewEvent.StxAsset s && (principal.equals(s.sender()) || principal.equals(s.recipient()))
                    || e instanceof NewEvent.FungibleAsset f
                    && (principal.equals(f.sender()) || principal.equals(f.recipient()))
                    || e instanceof NewEvent.NonFungibleAsset n
                    && (principal.equals(n.sender()) || principal.equals(n.recipient()))
                    || e instanceof NewEvent.StxLock l && principal.equals(l.lockedAddress())) {
                return true;
            }
        }
        return false;
    }

    static Set<String> directParties(StacksTransaction tx) {
        Set<String> parties = new LinkedHashSet<>();
        parties.add(tx.senderAddress().toString());
        tx.sponsorAddress().ifPresent(a -> parties.add(a.toString()));
        if (tx.payload() instanceof TransactionPayload.TokenTransfer t) {
            parties.add(t.recipientAddress());
        } else if (tx.payload() instanceof TransactionPayload.ContractCall c) {
            parties.add(c.contract().toString());
        }
        tx.smartContractId().ifPresent(id -> parties.add(id.toString()));
        return parties;
    }

    /** STX the principal sent in the transaction: STX events from it plus the fee when it paid it. */
    static BigInteger stxSent(Mined m, String principal) {
        BigInteger sent = BigInteger.ZERO;
        String payer = m.decoded().sponsorAddress().map(Object::toString)
                .orElse(m.decoded().senderAddress().toString());
        if (payer.equals(principal)) {
            sent = sent.add(m.decoded().fee());
        }
        for (NewEvent e : m.tx().events()) {
            if (e instanceof NewEvent.StxAsset s && principal.equals(s.sender())) {
                sent = sent.add(s.amount());
            }
        }
        return sent;
    }

    static BigInteger stxReceived(Mined m, String principal) {
        BigInteger received = BigInteger.ZERO;
        for (NewEvent e : m.tx().events()) {
            if (e instanceof NewEvent.StxAsset s && principal.equals(s.recipient())) {
                received = received.add(s.amount());
            }
        }
        return received;
    }

    /** Log events of a contract, as (tx id, event index) newest first. */
    List<String> logsOf(String contractId) {
        record Log(Mined m, int index) {
        }
        List<Log> logs = new ArrayList<>();
        for (Mined m : mined) {
            List<NewEvent> events = m.tx().events();
            for (int i = 0; i < events.size(); i++) {
                if (events.get(i) instanceof NewEvent.ContractLog log && log.contractId().equals(contractId)) {
                    logs.add(new Log(m, i));
                }
            }
        }
        logs.sort(Comparator.comparing(Log::m, NEWEST_FIRST).thenComparing(Comparator.comparingInt(Log::index).reversed()));
        return logs.stream().map(l -> l.m().tx().txId() + "#" + l.index()).toList();
    }

    /** Pending transactions concerning a principal (sender, sponsor, recipient, contract). */
    List<NewMempoolTransaction> pendingFor(String principal) {
        return chain.mempool().stream()
                .filter(p -> directParties(StacksTransaction.decodeHex(p.rawTx())).contains(principal))
                .toList();
    }
}
