package io.stacksexplorer.conformance.provider.states;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.TxFacts;

import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Where provider states get their data: the deterministic demo chain (seed
 * {@link DemoChain#DEFAULT_SEED}), written through the application's only write path,
 * {@link ChainWriter}. States write a prefix of its blocks and, when they need pending
 * transactions, its mempool. Writing is idempotent, so states can be set up in any order and
 * any number of times against one database; data only accumulates.
 */
public final class DemoChainSeed {

    private static DemoChain chain;

    private final ChainWriter writer;
    private final CodecTxDecoder decoder = new CodecTxDecoder();
    private int written;
    private boolean mempoolWritten;

    public DemoChainSeed(ChainWriter writer) {
        this.writer = writer;
    }

    /** The chain, generated once per test JVM. */
    public static synchronized DemoChain chain() {
        if (chain == null) {
            chain = DemoChain.generate(DemoChain.DEFAULT_SEED);
        }
        return chain;
    }

    /** Makes blocks 1…{@code height} exist; returns block {@code height}. */
    /**
     * Blocks 1…{@code height} exist and the change log was then pruned to its last row, as the
     * writer's retention leaves it after a long time: a resume from position 0 is refused.
     */
    public void pruneChangeLog(long height) {
        ensureBlocks(height);
        int deleted;
        do {
            deleted = writer.pruneChangeLog(Long.MAX_VALUE, 1_000);
        } while (deleted > 0);
    }

    public NewBlock ensureBlocks(long height) {
        List<NewBlock> blocks = chain().blocks();
        if (height < 1 || height > blocks.size()) {
            throw new IllegalArgumentException("the demo chain has blocks 1 to " + blocks.size() + ", not " + height);
        }
        for (int i = written; i < height; i++) {
            writer.writeBlock(blocks.get(i));
        }
        written = (int) Math.max(written, height);
        return blocks.get((int) height - 1);
    }

    /** Makes the demo chain's pending transactions exist (they are never mined in it). */
    public void ensureMempool() {
        if (!mempoolWritten) {
            writer.addMempoolTransactions(chain().mempool());
            mempoolWritten = true;
        }
    }

    /** Writes blocks up to the first one with a transaction that {@code test} accepts; returns it. */
    public Mined ensureMined(BiPredicate<NewTransaction, TxFacts> test) {
        for (NewBlock block : chain().blocks()) {
            for (NewTransaction tx : block.transactions()) {
                if (test.test(tx, decoder.decode(tx.rawTx()))) {
                    ensureBlocks(block.height());
                    return new Mined(block, tx, decoder.decode(tx.rawTx()));
                }
            }
        }
        throw new IllegalStateException("the demo chain has no such transaction");
    }

    /** Writes the mempool and returns its first transaction that {@code test} accepts. */
    public Pending ensurePending(BiPredicate<String, TxFacts> test) {
        ensureMempool();
        for (NewMempoolTransaction tx : chain().mempool()) {
            String txId = Sha512_256.txId(Hex.decode(tx.rawTx()));
            TxFacts facts = decoder.decode(tx.rawTx());
            if (test.test(txId, facts)) {
                return new Pending(txId, facts);
            }
        }
        throw new IllegalStateException("the demo chain's mempool has no such transaction");
    }

    /** Makes the transaction with this id exist, mined or pending, as the demo chain has it. */
    public void ensureTransaction(String txId) {
        String id = txId.toLowerCase();
        for (NewBlock block : chain().blocks()) {
            for (NewTransaction tx : block.transactions()) {
                if (tx.txId().equals(id)) {
                    ensureBlocks(block.height());
                    return;
                }
            }
        }
        Optional<NewMempoolTransaction> pending = chain().mempool().stream()
                .filter(tx -> Sha512_256.txId(Hex.decode(tx.rawTx())).equals(id)).findFirst();
        if (pending.isEmpty()) {
            throw new IllegalArgumentException(txId + " is not a transaction of the demo chain (seed "
                    + DemoChain.DEFAULT_SEED + ")");
        }
        ensureMempool();
    }

    public TxFacts facts(String rawTx) {
        return decoder.decode(rawTx);
    }

    /** A mined transaction with its block. */
    public record Mined(NewBlock block, NewTransaction tx, TxFacts facts) {
    }

    /** A pending transaction. */
    public record Pending(String txId, TxFacts facts) {
    }
}
