package io.stacksexplorer.generate;

import io.stacksexplorer.generate.NodeEventLog.Burn;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * Generates a node-event log of a mainnet-like chain, deterministically from a seed. It starts with
 * a genesis block (block 0) whose transaction carries the initial allocations. In the 2.x era:
 * per Stacks block a burn block, mempool announcements of most of the block's transactions (some
 * replaced by fee, some never mined and garbage-collected later), the block itself, now and then a
 * microblock stream that the next block confirms, and now and then a short fork: a sibling block
 * (or two) that a child then makes the longer chain. In the Nakamoto era (see {@link Nakamoto}):
 * per burn block a tenure of several to dozens of small signed blocks, seconds apart.
 *
 * <p>Memory is flat: the generator keeps the accounts pool, the last two blocks (a fork re-mines
 * their transactions), the pending microblock stream and a bounded queue of mempool drops, and
 * writes everything else as it goes.
 */
public final class ChainGenerator extends StacksTwoRounds {

    /** A {@link Era#MIXED} chain. */
    public ChainGenerator(long seed) {
        this(seed, Era.MIXED);
    }

    public ChainGenerator(long seed, Era era) {
        super(seed, era);
    }

    /** The hot address of this seed's chain (known before generating). */
    public String hotAddress() {
        return traffic.hot.id;
    }

    public String hotContract() {
        return traffic.hotContract;
    }

    /**
     * Writes the log of a chain holding exactly {@code transactions} canonical transactions. A
     * generator writes one log: make a new one (same seed, same bytes) for another.
     *
     * @param progress called after each block with the number of canonical transactions so far
     */
    public GeneratorSummary generate(long transactions, Writer out, LongConsumer progress) throws IOException {
        if (transactions < 1) {
            throw new IllegalArgumentException("at least one transaction");
        }
        long started = System.nanoTime();
        log = new NodeEventLog(out);
        summary = new GeneratorSummary();
        summary.seed = seed;
        summary.hotAddress = traffic.hot.id;
        summary.hotContract = traffic.hotContract;
        summary.era = era.option();
        target = transactions;
        clock = GENESIS_TIME * 1_000_000L;
        burn = new Burn(burnHash(), FIRST_BURN_HEIGHT, GENESIS_TIME);
        genesis();
        progress.accept(summary.transactions);

        // A mixed chain turns Nakamoto once 30 % of its transactions are mined, as mainnet did
        // after years of 2.x blocks (activation waits for a pending microblock stream to be mined).
        long nakamotoFrom = switch (era) {
            case TWO -> Long.MAX_VALUE;
            case THREE -> 0;
            case MIXED -> transactions * 3 / 10;
        };
        while (summary.transactions < transactions) {
            long budget = transactions - summary.transactions;
            if (nakamoto == null && summary.transactions >= nakamotoFrom && stream.isEmpty()) {
                nakamoto = new Nakamoto(this);
                traffic.nakamoto = true;
                epoch = Epoch.NAKAMOTO;
                summary.epoch3ActivationBurnHeight = burn.height() + 1;
            }
            if (nakamoto != null) {
                nakamoto.block(budget);
            } else {
                round(tip.payload().height() + 1, budget);
            }
            progress.accept(summary.transactions);
        }
        if (nakamoto != null) {
            nakamoto.finish();
        }
        pendingAtEnd();
        summary.tipHeight = tip.payload().height();
        summary.tipIndexBlockHash = tip.payload().indexBlockHash();
        summary.transactionTypes = new TreeMap<>(txTypes);
        summary.lines = log.lines();
        summary.seconds = (System.nanoTime() - started) / 1e9;
        return summary;
    }

    // --- genesis ---------------------------------------------------------------------------------

    /** Block 0: one transaction carrying the initial balances as mint events, no coinbase. */
    private void genesis() throws IOException {
        newBurnBlock();
        traffic.burnHeight = burn.height();
        Account miner = traffic.miners[0];
        Parent parent = new Parent(ZERO_HASH, traffic.hash32(), new Burn(ZERO_HASH, 0, 0));
        Mined block = mine(0, parent, miner, miner.nonce, List.of(traffic.genesis()), List.of());
        advance(random.nextInt(20, 90));
        log.block(clock, block.payload(), POX_UNLOCK_HEIGHTS);
        count(block);
        tip = block;
        maturing[0] = null; // block 0 has no coinbase, so nothing of it matures
    }
}
