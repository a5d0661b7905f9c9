package io.stacksexplorer.generate;

import io.stacksexplorer.generate.GeneratedTx.Encoded;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The mempool side of the log: announcements before a block mines their transactions (some replaced
 * by fee), stale transactions the node garbage-collects later, and what is still pending at the end.
 */
abstract class MempoolFeed extends GeneratorState {

    record StaleDrop(long dueHeight, String txId) {
    }

    /** Stale transactions waiting for the node to garbage-collect them, in due order. */
    final ArrayDeque<StaleDrop> staleDrops = new ArrayDeque<>();

    MempoolFeed(long seed, Era era) {
        super(seed, era);
    }

    // --- mempool ----------------------------------------------------------------------------------

    /**
     * Most transactions reach the mempool before a block mines them, in small batches; one replaced
     * by fee is announced twice (first the cheaper original) and the original dropped.
     */
    void announce(List<GeneratedTx> txs) throws IOException {
        List<String> batch = new ArrayList<>();
        for (GeneratedTx tx : txs) {
            if (tx.replaced() != null) {
                flush(batch);
                advance(random.nextInt(1, 20));
                log.mempool(clock, List.of(tx.replaced().rawTx()));
                advance(random.nextInt(5, 60));
                log.mempool(clock, List.of(tx.rawTx()));
                advance(random.nextInt(1, 5));
                log.drop(clock, List.of(tx.replaced().txId()), tx.txId(), "ReplaceByFee");
                summary.mempoolAnnounced += 2;
                summary.mempoolDropped++;
            } else if (random.nextInt(100) < 60) {
                batch.add(tx.rawTx());
                summary.mempoolAnnounced++;
                if (batch.size() >= 1 + random.nextInt(8)) {
                    flush(batch);
                }
            }
        }
        flush(batch);
    }

    void flush(List<String> batch) throws IOException {
        if (!batch.isEmpty()) {
            advance(random.nextInt(1, 30));
            log.mempool(clock, batch);
            batch.clear();
        }
    }

    /** Now and then a transfer whose nonce is far ahead: garbage-collected some blocks later. */
    void maybeStale(long height) throws IOException {
        if (random.nextInt(100) < 4) {
            Encoded stale = traffic.staleTransfer();
            advance(random.nextInt(1, 30));
            log.mempool(clock, List.of(stale.rawTx()));
            summary.mempoolAnnounced++;
            staleDrops.add(new StaleDrop(height + 40, stale.txId()));
        }
    }

    void dropDueTransactions(long height) throws IOException {
        List<String> due = new ArrayList<>();
        while (!staleDrops.isEmpty() && staleDrops.peek().dueHeight() <= height) {
            due.add(staleDrops.poll().txId());
        }
        if (!due.isEmpty()) {
            advance(random.nextInt(1, 10));
            log.drop(clock, due, null, "StaleGarbageCollect");
            summary.mempoolDropped += due.size();
        }
    }

    /** What is still pending when the log ends: a few announced transactions nobody mined yet. */
    void pendingAtEnd() throws IOException {
        int pending = random.nextInt(10, 40);
        List<GeneratedTx> txs = new ArrayList<>(pending);
        for (int i = 0; i < pending; i++) {
            txs.add(traffic.next());
        }
        if (epoch.atLeast(Epoch.E4_0) && txs.stream().noneMatch(tx -> "smart_contract".equals(tx.txType()))) {
            // Deployments are rare in the latest epochs' mix: a mixed log ends with one pending, as
            // its earlier mix used to (contract status shows a pending deployment from it).
            txs.add(traffic.helloDeploy());
            pending++;
        }
        List<String> raws = new ArrayList<>();
        for (GeneratedTx tx : txs) {
            raws.add(tx.rawTx());
        }
        advance(random.nextInt(5, 60));
        log.mempool(clock, raws);
        summary.mempoolAnnounced += pending;
        summary.mempoolPendingAtEnd = pending + staleDrops.size();
    }
}
