package io.stacksexplorer.generate;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.generate.NodeEventLog.Burn;
import io.stacksexplorer.generate.NodeEventLog.Placed;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * What the parts of {@link ChainGenerator} share: the seed's random stream and traffic, the log
 * being written, the summary, the clock and the burn chain, the canonical tip, and how a mined block
 * is counted (and taken back out when a fork orphans it).
 */
abstract class GeneratorState {

    static final String ZERO_HASH = "0x" + "00".repeat(32);
    static final long GENESIS_TIME = 1_713_000_000L; // April 2024, after the 2.5 fork
    static final long FIRST_BURN_HEIGHT = 840_400L;
    static final long[] POX_UNLOCK_HEIGHTS = {781_551L, 787_651L, 840_360L};
    static final long COINBASE = 1_000_000_000L;
    static final int MATURITY = 100;

    final long seed;
    final Era era;
    final SplittableRandom random;
    final Traffic traffic;

    /**
     * A block written to the log, kept while a fork may still re-mine its transactions.
     *
     * @param extends_ whether the block holds a tenure extension (a Nakamoto fork never orphans one)
     */
    record Mined(NodeEventLog.Block payload, Account miner, long coinbaseNonce, List<GeneratedTx> anchored,
                 boolean touchesMicroblocks, boolean extends_) {

        Mined(NodeEventLog.Block payload, Account miner, long coinbaseNonce, List<GeneratedTx> anchored,
              boolean touchesMicroblocks) {
            this(payload, miner, coinbaseNonce, anchored, touchesMicroblocks, false);
        }

        Parent asParent() {
            return new Parent(payload.blockHash(), payload.indexBlockHash(), payload.burn());
        }

        /** This block's own parent, as far as its payload tells. */
        Parent parent() {
            return new Parent(payload.parentBlockHash(), payload.parentIndexBlockHash(), payload.parentBurn());
        }
    }

    record Parent(String blockHash, String indexBlockHash, Burn burn) {
    }

    NodeEventLog log;
    GeneratorSummary summary;
    long clock;
    Burn burn;
    Mined tip;
    Nakamoto nakamoto;
    /** Miner and block of each of the last {@link #MATURITY} canonical heights, for matured rewards. */
    final String[][] maturing = new String[MATURITY + 1][];
    final TreeMap<String, Long> txTypes = new TreeMap<>();
    /** The epoch of the burn block being built on. */
    Epoch epoch = Epoch.TWO;
    /** The canonical transactions the log is to hold (a mixed log's later epochs start at shares of it). */
    long target;
    final BitcoinOperations bitcoinOps;

    GeneratorState(long seed, Era era) {
        this.seed = seed;
        this.era = era;
        this.random = new SplittableRandom(seed);
        this.traffic = new Traffic(random.split());
        this.bitcoinOps = new BitcoinOperations(traffic);
    }

    /** Whether a mixed log has mined its share for the next epoch (always false for a 2- or 3-only log). */
    boolean nextEpochDue() {
        Epoch next = epoch.next();
        return era == Era.MIXED && epoch.atLeast(Epoch.NAKAMOTO) && next != null
                && summary.transactions >= target * next.mixedFromPerMille / 1000;
    }

    /** On a new tenure's burn block: enters the next epoch when it is due (one at a time, none skipped). */
    void maybeNextEpoch() {
        if (nextEpochDue()) {
            enter(epoch.next());
        }
    }

    void enter(Epoch next) {
        epoch = next;
        summary.epochs.put(next.name, burn.height());
        traffic.today.entered(next);
        bitcoinOps.entered(next);
    }

    /** A block's index hash, as the node derives it: SHA-512/256 of its hash and its consensus hash. */
    static String indexBlockHash(String blockHash, String consensusHash) {
        byte[] indexInput = new byte[52];
        System.arraycopy(Hex.decode(blockHash), 0, indexInput, 0, 32);
        System.arraycopy(Hex.decode(consensusHash), 0, indexInput, 32, 20);
        return Hex.encode(Sha512_256.hash(indexInput));
    }

    void count(Mined block) {
        tally(block, 1);
    }

    /** Takes an orphaned block's counts back out of the summary (its transactions are mined again). */
    void uncount(Mined block) {
        tally(block, -1);
    }

    void tally(Mined block, int sign) {
        // Block 0 is not a block to the API: its transactions are served as part of block 1.
        NodeEventLog.Nakamoto n = block.payload().nakamoto();
        if (block.payload().height() > 0) {
            summary.blocks += sign;
            summary.blocksByEra.merge(n == null ? "2" : "3", (long) sign, Long::sum);
        }
        String epochName = n == null ? Epoch.TWO.name : n.epoch().name;
        for (Placed p : block.payload().transactions()) {
            GeneratedTx tx = p.tx();
            if (tx.isBurnchainOperation()) {
                // Not a Stacks transaction: counted apart (the budget is of Stacks transactions).
                summary.burnchainOperations.merge(tx.extra().burnchainOp().kind().key, (long) sign, Long::sum);
                continue;
            }
            summary.transactions += sign;
            summary.transactionsByEpoch.merge(epochName, (long) sign, Long::sum);
            txTypes.merge(tx.txType(), (long) sign, Long::sum);
            if (!tx.committed()) {
                summary.failedTransactions += sign;
            }
            if (tx.sponsored()) {
                summary.sponsoredTransactions += sign;
            }
            if ("smart_contract".equals(tx.txType())) {
                summary.contractDeployments += sign;
            }
            if (tx.hot()) {
                summary.hotAddressTransactions += sign;
            }
            summary.contractLogs += sign * tx.logs();
            summary.hotContractLogs += sign * tx.hotLogs();
        }
    }

    // --- burn chain and clock -----------------------------------------------------------------------

    /** The next Bitcoin block; now and then one passes without a Stacks block (no sortition winner). */
    void newBurnBlock() throws IOException {
        int blocks = random.nextInt(100) < 5 ? 2 : 1;
        for (int i = 0; i < blocks; i++) {
            long time = Math.max(burn.time() + 60, burn.time() + 600 + random.nextInt(-240, 241));
            if (nakamoto != null) {
                // A Nakamoto tenure lasts until Bitcoin's next block: it comes seconds after the
                // tenure's last block (so Stacks blocks stay seconds apart across tenures too).
                time = Math.max(burn.time(), nakamoto.lastBlockTime()) + random.nextInt(1, 30);
                burn = new Burn(burnHash(), burn.height() + 1, time, burn.hash(), Hex.encode(traffic.bytes(20)));
            } else {
                burn = new Burn(burnHash(), burn.height() + 1, time);
            }
            clock = Math.max(clock, time * 1_000_000L) + random.nextLong(200_000, 3_000_000);
            log.burnBlock(clock, burn, random.nextLong(10_000, 2_000_000));
        }
    }

    void advance(int seconds) {
        clock += seconds * 1_000_000L + random.nextLong(1_000_000L);
    }

    String burnHash() {
        byte[] hash = traffic.bytes(32);
        Arrays.fill(hash, 0, 9, (byte) 0); // Bitcoin block hashes start with zeros
        return Hex.encode(hash);
    }

    static List<String> rawTxs(List<GeneratedTx> txs) {
        List<String> raws = new ArrayList<>(txs.size());
        for (GeneratedTx tx : txs) {
            raws.add(tx.rawTx());
        }
        return raws;
    }
}
