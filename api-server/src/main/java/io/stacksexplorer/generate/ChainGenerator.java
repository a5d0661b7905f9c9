package io.stacksexplorer.generate;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.generate.NodeEventLog.Burn;
import io.stacksexplorer.generate.NodeEventLog.Placed;
import io.stacksexplorer.generate.NodeEventLog.Reward;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
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
public final class ChainGenerator {

    static final String ZERO_HASH = "0x" + "00".repeat(32);
    private static final long GENESIS_TIME = 1_713_000_000L; // April 2024, after the 2.5 fork
    private static final long FIRST_BURN_HEIGHT = 840_400L;
    static final long[] POX_UNLOCK_HEIGHTS = {781_551L, 787_651L, 840_360L};
    static final long COINBASE = 1_000_000_000L;
    static final int MATURITY = 100;

    private final long seed;
    private final Era era;
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

    private record StaleDrop(long dueHeight, String txId) {
    }

    NodeEventLog log;
    GeneratorSummary summary;
    long clock;
    Burn burn;
    Mined tip;
    private Mined beforeTip;
    private Nakamoto nakamoto;
    private List<Placed> stream = List.of();
    /** How many of the stream's transactions the next block confirms (the rest were forked off). */
    private int streamConfirmed;
    /** Stale transactions waiting for the node to garbage-collect them, in due order. */
    private final ArrayDeque<StaleDrop> staleDrops = new ArrayDeque<>();
    /** Miner and block of each of the last {@link #MATURITY} canonical heights, for matured rewards. */
    private final String[][] maturing = new String[MATURITY + 1][];
    private final TreeMap<String, Long> txTypes = new TreeMap<>();

    /** A {@link Era#MIXED} chain. */
    public ChainGenerator(long seed) {
        this(seed, Era.MIXED);
    }

    public ChainGenerator(long seed, Era era) {
        this.seed = seed;
        this.era = era;
        this.random = new SplittableRandom(seed);
        this.traffic = new Traffic(random.split());
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

    // --- one Stacks block -------------------------------------------------------------------------

    private void round(long height, long budget) throws IOException {
        newBurnBlock();
        traffic.burnHeight = burn.height();
        dropDueTransactions(height);

        int size = (int) Math.min(blockSize(), budget);
        size = Math.max(size, 1 + stream.size());
        Account miner = traffic.miners[random.nextInt(Traffic.MINERS)];
        // The block confirms the stream up to its cut; the orphaned tail is mined again, anchored.
        List<Placed> confirmed = stream.subList(0, streamConfirmed);
        List<GeneratedTx> anchored = new ArrayList<>(size - confirmed.size());
        long coinbaseNonce = miner.nonce;
        anchored.add(traffic.coinbase(miner));
        for (Placed orphan : stream.subList(streamConfirmed, stream.size())) {
            anchored.add(orphan.tx());
        }
        int fresh = anchored.size();
        while (anchored.size() + confirmed.size() < size) {
            anchored.add(traffic.next());
        }
        announce(anchored.subList(fresh, anchored.size()));
        maybeStale(height);

        boolean confirmsStream = !stream.isEmpty();
        Parent parent = tip.asParent();
        Mined block = mine(height, parent, miner, coinbaseNonce, anchored, confirmed);
        advance(random.nextInt(20, 90));
        log.block(clock, block.payload(), POX_UNLOCK_HEIGHTS);
        count(block);
        stream = List.of();
        streamConfirmed = 0;
        beforeTip = tip;
        tip = block;

        long remaining = budget - size;
        boolean forked = false;
        // The first fork comes early, so that even a small log has one.
        boolean wanted = summary.reorgs == 0 ? height >= 25 : random.nextInt(200) == 0;
        if (wanted && !confirmsStream && height > 4 && remaining > 60 && !beforeTip.touchesMicroblocks()) {
            forked = fork(random.nextInt(100) < 30 ? List.of(beforeTip, tip) : List.of(tip));
        }
        if (!forked && height > 2 && remaining > 20 && random.nextInt(15) == 0) {
            microblockStream((int) Math.min(remaining - 10, 12));
        }
    }

    /** Mostly 5–50 transactions, some quiet blocks and some busy ones. */
    private int blockSize() {
        int roll = random.nextInt(100);
        if (roll < 3) {
            return random.nextInt(1, 5);
        } else if (roll < 85) {
            return random.nextInt(5, 51);
        } else if (roll < 98) {
            return random.nextInt(51, 201);
        }
        return random.nextInt(201, 601);
    }

    private Mined mine(long height, Parent parent, Account miner, long coinbaseNonce, List<GeneratedTx> anchored,
                       List<Placed> confirmed) {
        List<Placed> placed = new ArrayList<>(anchored.size() + confirmed.size());
        for (GeneratedTx tx : anchored) {
            placed.add(new Placed(tx, placed.size(), null, 0, null));
        }
        String parentMicroblock = null;
        int parentMicroblockSequence = 0;
        // Confirmed microblock transactions follow the anchored ones, as in the recorded logs.
        for (Placed p : confirmed) {
            placed.add(new Placed(p.tx(), placed.size(), p.microblockHash(), p.microblockSequence(),
                    p.microblockParentHash()));
            parentMicroblock = p.microblockHash();
            parentMicroblockSequence = p.microblockSequence();
        }
        String blockHash = traffic.hash32();
        String consensusHash = Hex.encode(traffic.bytes(20));
        String indexBlockHash = indexBlockHash(blockHash, consensusHash);
        List<Reward> rewards = new ArrayList<>(1);
        String[] matured = maturing[(int) (height % maturing.length)];
        if (height > MATURITY && matured != null) {
            rewards.add(new Reward(matured[0], COINBASE, Long.parseLong(matured[1]), matured[2], matured[3]));
        }
        NodeEventLog.Block payload = new NodeEventLog.Block(height, blockHash, indexBlockHash, parent.blockHash(),
                parent.indexBlockHash(), parentMicroblock, parentMicroblockSequence, burn, parent.burn(),
                traffic.hash32(), placed, rewards, null);
        long fees = random.nextLong(50_000, 2_000_000L) * anchored.size();
        maturing[(int) (height % maturing.length)] = new String[]{miner.id, Long.toString(fees), blockHash,
                consensusHash};
        return new Mined(payload, miner, coinbaseNonce, anchored, !confirmed.isEmpty());
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

    private void tally(Mined block, int sign) {
        // Block 0 is not a block to the API: its transactions are served as part of block 1.
        if (block.payload().height() > 0) {
            summary.blocks += sign;
            summary.blocksByEra.merge(block.payload().nakamoto() == null ? "2" : "3", (long) sign, Long::sum);
        }
        for (Placed p : block.payload().transactions()) {
            GeneratedTx tx = p.tx();
            summary.transactions += sign;
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

    // --- forks ------------------------------------------------------------------------------------

    /**
     * A short fork: siblings of the last one or two blocks arrive (stored as non-canonical: not
     * higher than the tip), re-mining the same transactions under other miners; the next round's
     * block builds on the last sibling, which makes that fork the longer one. The orphaned miners'
     * coinbases never become canonical, so their nonces are handed back; a fork is skipped when a
     * miner signed anything after its coinbase (the nonce could not be handed back).
     */
    private boolean fork(List<Mined> orphaned) throws IOException {
        Map<Account, Long> nonces = new IdentityHashMap<>();
        for (int i = orphaned.size() - 1; i >= 0; i--) {
            Mined m = orphaned.get(i);
            long next = nonces.getOrDefault(m.miner(), m.miner().nonce);
            if (next != m.coinbaseNonce() + 1) {
                return false;
            }
            nonces.put(m.miner(), m.coinbaseNonce());
        }
        nonces.forEach((miner, nonce) -> miner.nonce = nonce);
        Parent parent = orphaned.get(0).parent();
        List<Mined> siblings = new ArrayList<>(orphaned.size());
        for (Mined original : orphaned) {
            newBurnBlock();
            Account miner = traffic.miners[random.nextInt(Traffic.MINERS)];
            List<GeneratedTx> txs = new ArrayList<>(original.anchored().size());
            long coinbaseNonce = miner.nonce;
            txs.add(traffic.coinbase(miner));
            txs.addAll(original.anchored().subList(1, original.anchored().size()));
            Mined sibling = mine(original.payload().height(), parent, miner, coinbaseNonce, txs, List.of());
            advance(random.nextInt(5, 60));
            log.block(clock, sibling.payload(), POX_UNLOCK_HEIGHTS);
            siblings.add(sibling);
            parent = sibling.asParent();
        }
        // The siblings replace the orphaned blocks one for one: the same transactions but the coinbase.
        summary.reorgs++;
        summary.orphanedBlocks += orphaned.size();
        if (siblings.size() == 2) {
            beforeTip = siblings.get(0);
        }
        tip = siblings.get(siblings.size() - 1);
        return true;
    }

    // --- microblocks ------------------------------------------------------------------------------

    /**
     * A stream of one to three microblocks on top of the tip, announced to the mempool first and
     * confirmed by the next block (its transactions count there). Now and then the next block
     * confirms only the first microblocks: the others become a non-canonical microblock fork and
     * their transactions (anchorable ones) are mined again in that block itself.
     */
    private void microblockStream(int maxTransactions) throws IOException {
        int microblocks = random.nextInt(1, 4);
        int cut = microblocks;
        if (microblocks > 1 && (summary.orphanedMicroblocks == 0 || random.nextInt(100) < 20)) {
            cut = random.nextInt(1, microblocks);
        }
        List<Placed> txs = new ArrayList<>();
        String parentHash = tip.payload().blockHash();
        int confirmedCount = 0;
        for (int sequence = 0; sequence < microblocks && txs.size() < maxTransactions; sequence++) {
            String hash = traffic.hash32();
            int count = Math.min(random.nextInt(1, 4), maxTransactions - txs.size());
            for (int i = 0; i < count; i++) {
                txs.add(new Placed(traffic.microblockTransaction(sequence >= cut), i, hash, sequence, parentHash));
            }
            parentHash = hash;
            summary.microblocks++;
            if (sequence < cut) {
                confirmedCount = txs.size();
            } else {
                summary.orphanedMicroblocks++;
            }
        }
        List<GeneratedTx> announced = new ArrayList<>(txs.size());
        for (Placed p : txs) {
            announced.add(p.tx());
        }
        advance(random.nextInt(5, 40));
        log.mempool(clock, rawTxs(announced));
        summary.mempoolAnnounced += announced.size();
        // The node reports microblocks as they arrive: sometimes the stream comes in two deliveries.
        int split = txs.size() > 1 && random.nextInt(100) < 30 ? random.nextInt(1, txs.size()) : txs.size();
        while (split > 0 && split < txs.size() && txs.get(split).microblockHash().equals(txs.get(split - 1)
                .microblockHash())) {
            split--;
        }
        for (List<Placed> part : split == 0 || split == txs.size() ? List.of(txs)
                : List.of(txs.subList(0, split), txs.subList(split, txs.size()))) {
            advance(random.nextInt(5, 60));
            log.microblocks(clock, tip.payload().indexBlockHash(), burn, part);
        }
        summary.microblockTransactions += txs.size();
        stream = txs;
        streamConfirmed = confirmedCount;
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

    private void flush(List<String> batch) throws IOException {
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
    private void pendingAtEnd() throws IOException {
        int pending = random.nextInt(10, 40);
        List<GeneratedTx> txs = new ArrayList<>(pending);
        for (int i = 0; i < pending; i++) {
            txs.add(traffic.next());
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

    private static List<String> rawTxs(List<GeneratedTx> txs) {
        List<String> raws = new ArrayList<>(txs.size());
        for (GeneratedTx tx : txs) {
            raws.add(tx.rawTx());
        }
        return raws;
    }
}
