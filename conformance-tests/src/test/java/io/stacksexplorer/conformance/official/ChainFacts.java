package io.stacksexplorer.conformance.official;

import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.PrincipalActivity;
import io.stacksexplorer.write.TxFacts;
import io.stacksexplorer.write.TxOutcome;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the answers must say, computed from a chain's canonical blocks and pending transactions
 * (the generator's, as {@code DemoChain} reads them back), independently of the server's tables:
 * a principal's history and its per-transaction totals, a contract's log events, a principal's
 * pending transactions, a contract's last deployment, each in the order the routes promise.
 *
 * <p>Order within one block comes from the transaction's position in the node's block (a
 * confirmed microblock transaction keeps its microblock's index when served, so the node's
 * {@code tx_index} of the confirming block is not what to sort by; the microblock sequence and the
 * position are).
 */
final class ChainFacts {

    /** A mined canonical transaction and where it sits. */
    record Mined(NewBlock block, int position, NewTransaction tx, TxFacts facts) {

        long height() {
            return block.height();
        }

        /** The served microblock sequence: the microblock's, or the anchor block's marker. */
        int sequence() {
            return tx.inMicroblock() ? tx.microblockSequence() : NewTransaction.ANCHOR_BLOCK_SEQUENCE;
        }

        String txId() {
            return tx.txId();
        }

        List<PrincipalActivity> activity() {
            return PrincipalActivity.derive(facts, tx.status(), tx.events());
        }
    }

    /** One {@code smart_contract_log} event, {@code eventIndex} its position within its transaction. */
    record Log(Mined mined, int eventIndex, NewEvent.ContractLog event) {
    }

    /** Newest first: block height, microblock sequence, position, all descending. */
    static final Comparator<Mined> NEWEST_FIRST = Comparator.comparingLong(Mined::height)
            .thenComparingInt(Mined::sequence).thenComparingInt(Mined::position).reversed();

    private final List<Mined> mined = new ArrayList<>();
    private final Map<String, Mined> byId = new HashMap<>();
    private final List<NewMempoolTransaction> pending;
    private final Map<String, TxFacts> pendingFacts = new HashMap<>();

    ChainFacts(List<NewBlock> canonical, List<NewMempoolTransaction> pending) {
        CodecTxDecoder decoder = new CodecTxDecoder();
        for (NewBlock block : canonical) {
            for (int i = 0; i < block.transactions().size(); i++) {
                NewTransaction tx = block.transactions().get(i);
                TxFacts facts = tx.facts() != null ? tx.facts() : decoder.decode(tx.rawTx());
                Mined m = new Mined(block, i, tx, facts);
                mined.add(m);
                byId.put(tx.txId(), m);
            }
        }
        mined.sort(NEWEST_FIRST);
        this.pending = List.copyOf(pending);
        pending.forEach(tx -> pendingFacts.put(tx.id(), tx.facts() != null ? tx.facts() : decoder.decode(tx.rawTx())));
    }

    Optional<Mined> find(String txId) {
        return Optional.ofNullable(byId.get(txId));
    }

    /** The mined transaction with the most events (ties: the newest). */
    Mined mostEvents() {
        return mined.stream().max(Comparator.comparingInt((Mined m) -> m.tx().events().size())
                .thenComparing(NEWEST_FIRST.reversed())).orElseThrow();
    }

    boolean isPending(String txId) {
        return pendingFacts.containsKey(txId);
    }

    /** Every transaction that involves {@code principal} (as the write path defines it), newest first. */
    List<Mined> history(String principal) {
        return mined.stream().filter(m -> activity(m, principal).isPresent()).toList();
    }

    /** What {@code m} means for {@code principal}. */
    static Optional<PrincipalActivity> activity(Mined m, String principal) {
        return m.activity().stream().filter(a -> a.principal().equals(principal)).findFirst();
    }

    /** The contract's {@code smart_contract_log} events of successful transactions, newest first. */
    List<Log> contractLogs(String contractId) {
        List<Log> logs = new ArrayList<>();
        for (Mined m : mined) {
            if (m.tx().status() != TxOutcome.SUCCESS) {
                continue;
            }
            List<NewEvent> events = m.tx().events();
            for (int i = events.size() - 1; i >= 0; i--) {
                if (events.get(i) instanceof NewEvent.ContractLog log && log.contractId().equals(contractId)) {
                    logs.add(new Log(m, i, log));
                }
            }
        }
        return logs;
    }

    /**
     * Pending transactions whose sender, sponsor, token-transfer recipient or contract is
     * {@code principal}, newest first: receipt time descending, then id ascending (the seed's
     * {@code /extended/v1/address/{address}/mempool}) or descending (the peer's v3 route, whose
     * cursor is {@code receipt_time:tx_id}).
     */
    List<NewMempoolTransaction> pendingOf(String principal, boolean idsDescending) {
        Comparator<NewMempoolTransaction> byId = Comparator.comparing(NewMempoolTransaction::id);
        return pending.stream().filter(tx -> pendingFacts.get(tx.id()).directPrincipals().contains(principal))
                .sorted(Comparator.comparingLong(NewMempoolTransaction::receiptTime).reversed()
                        .thenComparing(idsDescending ? byId.reversed() : byId))
                .toList();
    }

    /** The principal with the most pending transactions (ties: the smallest name), for mempool pages. */
    String busiestPendingPrincipal() {
        Map<String, Integer> counts = new HashMap<>();
        pendingFacts.values().forEach(f -> f.directPrincipals().forEach(p -> counts.merge(p, 1, Integer::sum)));
        Comparator<Map.Entry<String, Integer>> most = Map.Entry.comparingByValue();
        Comparator<Map.Entry<String, Integer>> smallestName = Map.Entry.<String, Integer>comparingByKey().reversed();
        return counts.entrySet().stream().filter(e -> !e.getKey().contains("."))
                .max(most.thenComparing(smallestName)).orElseThrow().getKey();
    }

    /** The latest canonical deployment attempt of {@code contractId}. */
    Optional<Mined> lastDeployment(String contractId) {
        return mined.stream().filter(m -> "smart_contract".equals(m.facts().txType())
                && contractId.equals(m.facts().contractId())).findFirst();
    }

    /** A pending deployment of a contract that no canonical block deploys. */
    Optional<String> pendingOnlyDeployment() {
        return pendingFacts.values().stream().filter(f -> "smart_contract".equals(f.txType()))
                .map(TxFacts::contractId).filter(id -> lastDeployment(id).isEmpty()).sorted().findFirst();
    }
}
