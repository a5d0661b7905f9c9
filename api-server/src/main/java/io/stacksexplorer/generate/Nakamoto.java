package io.stacksexplorer.generate;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.tx.TenureChangeCause;
import io.stacksexplorer.generate.GeneratorState.Mined;
import io.stacksexplorer.generate.GeneratorState.Parent;
import io.stacksexplorer.generate.NodeEventLog.Placed;
import io.stacksexplorer.generate.NodeEventLog.Reward;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The Nakamoto-era blocks of a generated chain (epoch 3.0 and later), one {@link #block} at a time.
 *
 * <p>Each burn block starts a tenure: its miner's first block opens with a tenure change
 * ({@code BLOCK_FOUND}) and a coinbase carrying a VRF proof, and the tenure goes on for several to
 * dozens of small blocks, seconds apart, each signed by the miner and the signers. Now and then a
 * miner extends its tenure ({@code EXTENDED}). There are no microblocks. A fork is as Nakamoto has
 * them: the next tenure builds on an earlier block of the previous one, so that tenure's last one
 * to three blocks are replaced (their transactions are mined again in the new tenure), never a
 * long competing chain.
 *
 * <p>Memory stays flat: only the tip's tenure (at most a few dozen blocks) is kept.
 */
final class Nakamoto {

    private static final long POX_FIRST_BURN_HEIGHT = 666_050L;
    private static final long CYCLE_LENGTH = 2_100L;
    private static final int SIGNERS = 12;

    private final ChainGenerator chain;
    private final SplittableRandom random;
    private final Traffic traffic;
    private final List<NodeEventLog.Signer> signers = new ArrayList<>(SIGNERS);
    /** Blocks of the tip's tenure, oldest first. */
    private final List<Mined> tenure = new ArrayList<>();
    /** Transactions of blocks a fork replaced, in chain order: the new tenure mines them first. */
    private final ArrayDeque<GeneratedTx> remine = new ArrayDeque<>();
    /** Miner and first block of the last {@link ChainGenerator#MATURITY} tenures, by tenure height. */
    private final String[][] maturing = new String[ChainGenerator.MATURITY + 1][];

    private Account miner;
    private String minerTxid;
    private String consensusHash;
    private String previousConsensusHash;
    private long tenureHeight;
    private int tenureLength;
    private boolean extended;
    private long lastBlockTime;
    private long lastCycle = -1;
    /** After a fork: the height of the replaced tip, which the new tenure must pass; else -1. */
    private long catchUpTo = -1;
    private int forks;
    private GeneratedTx openingTenureChange;
    private GeneratedTx openingCoinbase;
    /** SIP-034 causes still to show (epoch 3.3 and later). */
    private final ArrayDeque<TenureChangeCause> dueCauses = new ArrayDeque<>();

    Nakamoto(ChainGenerator chain) {
        this.chain = chain;
        this.random = chain.random;
        this.traffic = chain.traffic;
        for (int i = 0; i < SIGNERS; i++) {
            signers.add(new NodeEventLog.Signer(random.nextInt(1, 8), "02" + Hex.encodeBare(traffic.bytes(32)),
                    Long.toString(random.nextLong(1_000_000L, 80_000_000L) * Traffic.STX)));
        }
        // Every 2.x block had a coinbase, so the tenure (coinbase) height so far is the block height.
        tenureHeight = chain.tip.payload().height();
        lastBlockTime = chain.clock / 1_000_000L;
        previousConsensusHash = Hex.encode(traffic.bytes(20));
    }

    long lastBlockTime() {
        return lastBlockTime;
    }

    /** Writes the next block: the next of the tip's tenure, or the first of a new tenure. */
    void block(long budget) throws IOException {
        // A due epoch ends the tenure: its activation is the next burn block.
        boolean tenureDone = (tenure.size() >= tenureLength || chain.nextEpochDue()) && catchUpTo < 0;
        // A new tenure needs room for its tenure change and coinbase; else the current one goes on.
        if (tenure.isEmpty() || tenureDone && budget >= 2) {
            budget += startTenure(budget);
        }
        mine(budget);
    }

    /** Nothing left to do: a fork's new tenure has passed the replaced tip by construction. */
    void finish() {
        if (catchUpTo >= 0 || !remine.isEmpty()) {
            throw new IllegalStateException("a Nakamoto fork did not complete");
        }
    }

    // --- tenures ----------------------------------------------------------------------------------

    /** Opens a tenure on a new burn block, now and then forking off the previous tenure's tail. */
    private int startTenure(long budget) throws IOException {
        chain.newBurnBlock();
        traffic.burnHeight = chain.burn.height();
        Epoch before = chain.epoch;
        chain.maybeNextEpoch();
        if (chain.epoch == Epoch.E3_3 && before != Epoch.E3_3) {
            // The first extensions of epoch 3.3 show each of SIP-034's per-dimension causes once.
            dueCauses.addAll(List.of(TenureChangeCause.EXTENDED_RUNTIME, TenureChangeCause.EXTENDED_READ_COUNT,
                    TenureChangeCause.EXTENDED_READ_LENGTH, TenureChangeCause.EXTENDED_WRITE_COUNT,
                    TenureChangeCause.EXTENDED_WRITE_LENGTH));
        }
        Mined previousEnd = chain.tip;
        int previousBlocks = Math.max(1, tenure.size());
        int reMined = 0;
        // The first fork comes early, so that even a small log has one.
        boolean wanted = forks == 0 ? chain.summary.tenures >= 3 : random.nextInt(150) == 0;
        if (wanted && budget > 200 && tenure.size() >= 3) {
            int replaced = random.nextInt(1, Math.min(3, tenure.size() - 1) + 1);
            List<Mined> tail = tenure.subList(tenure.size() - replaced, tenure.size());
            if (tail.stream().noneMatch(Mined::extends_)) {
                catchUpTo = chain.tip.payload().height();
                for (Mined orphan : tail) {
                    chain.uncount(orphan);
                    for (Placed p : orphan.payload().transactions()) {
                        remine.add(p.tx());
                        reMined++;
                    }
                }
                chain.summary.reorgs++;
                forks++;
                chain.summary.orphanedBlocks += replaced;
                previousBlocks = tenure.size() - replaced;
                previousEnd = tenure.get(previousBlocks - 1);
                chain.tip = previousEnd;
            }
        }
        Account previousMiner = miner;
        do {
            miner = traffic.miners[random.nextInt(Traffic.MINERS)];
        } while (miner == previousMiner);
        minerTxid = traffic.hash32();
        previousConsensusHash = consensusHash != null ? consensusHash : previousConsensusHash;
        consensusHash = chain.burn.consensusHash();
        tenureHeight++;
        chain.summary.tenures++;
        tenure.clear();
        extended = false;
        tenureLength = tenureLength();
        if (catchUpTo >= 0) {
            // The new tenure must become the longer chain: at least up to one past the replaced tip.
            tenureLength = (int) Math.max(tenureLength, catchUpTo + 1 - chain.tip.payload().height());
        }
        openingTenureChange = traffic.tenureChange(miner, consensusHash, previousConsensusHash,
                tenureEnd(previousEnd), previousBlocks, TenureChangeCause.BLOCK_FOUND);
        openingCoinbase = traffic.nakamotoCoinbase(miner);
        return reMined;
    }

    /** Several to dozens of blocks; most tenures last one Bitcoin block of about ten minutes. */
    private int tenureLength() {
        int roll = random.nextInt(100);
        if (roll < 15) {
            return random.nextInt(3, 10);
        } else if (roll < 90) {
            return random.nextInt(10, 60);
        }
        return random.nextInt(60, 120);
    }

    /** Mostly 1–10 transactions, a few busier blocks. */
    private int blockSize() {
        int roll = random.nextInt(100);
        if (roll < 45) {
            return random.nextInt(1, 4);
        } else if (roll < 85) {
            return random.nextInt(4, 11);
        } else if (roll < 98) {
            return random.nextInt(11, 31);
        }
        return random.nextInt(31, 101);
    }

    // --- one block --------------------------------------------------------------------------------

    private void mine(long budget) throws IOException {
        long height = chain.tip.payload().height() + 1;
        chain.dropDueTransactions(height);
        List<GeneratedTx> txs = new ArrayList<>();
        boolean opensTenure = tenure.isEmpty();
        boolean extendsTenure = false;
        if (opensTenure) {
            txs.add(openingTenureChange);
            txs.add(openingCoinbase);
        } else if (chain.epoch.atLeast(Epoch.E3_3) ? budget >= 2 && extendsNow()
                : !extended && budget >= 2 && random.nextInt(40) == 0) {
            TenureChangeCause cause = chain.epoch.atLeast(Epoch.E3_3) ? cause() : TenureChangeCause.EXTENDED;
            txs.add(traffic.tenureChange(miner, consensusHash, consensusHash, tenureEnd(chain.tip), tenure.size(),
                    cause));
            extended = true;
            extendsTenure = true;
        }
        long room = budget;
        if (catchUpTo >= 0) {
            // Each block still needed to pass the replaced tip takes at least one transaction.
            room -= catchUpTo + 1 - height;
        }
        int size = (int) Math.max(txs.size(), Math.min(blockSize(), room));
        while (txs.size() < size && !remine.isEmpty()) {
            txs.add(remine.poll());
        }
        int fresh = txs.size();
        while (txs.size() < size) {
            txs.add(traffic.next());
        }
        chain.announce(txs.subList(fresh, txs.size()));
        chain.maybeStale(height);

        Parent parent = chain.tip.asParent();
        String blockHash = traffic.hash32();
        List<Placed> placed = new ArrayList<>(txs.size());
        // The node runs the burn block's Bitcoin operations before the tenure's first transactions.
        List<GeneratedTx> operations = opensTenure && chain.epoch.today()
                ? chain.bitcoinOps.forTenure(chain.epoch, chain.burn) : List.of();
        for (GeneratedTx tx : operations) {
            placed.add(new Placed(tx, placed.size(), null, 0, null));
        }
        for (GeneratedTx tx : txs) {
            placed.add(new Placed(tx, placed.size(), null, 0, null));
        }
        List<Reward> rewards = new ArrayList<>(1);
        int slot = (int) (tenureHeight % maturing.length);
        if (opensTenure) {
            String[] matured = maturing[slot];
            if (matured != null && tenureHeight > ChainGenerator.MATURITY) {
                rewards.add(new Reward(matured[0], ChainGenerator.COINBASE, Long.parseLong(matured[1]), matured[2],
                        matured[3]));
            }
            maturing[slot] = new String[]{miner.id, Long.toString(random.nextLong(50_000, 2_000_000L) * size),
                    blockHash, consensusHash};
        }
        lastBlockTime = Math.max(lastBlockTime + random.nextInt(2, 13), chain.burn.time() + 1);
        chain.clock = Math.max(chain.clock, lastBlockTime * 1_000_000L) + random.nextLong(100_000, 1_500_000);
        long cycle = (chain.burn.height() - POX_FIRST_BURN_HEIGHT) / CYCLE_LENGTH;
        NodeEventLog.RewardSet rewardSet = cycle != lastCycle ? rewardSet() : null;
        lastCycle = cycle;
        NodeEventLog.Nakamoto fields = new NodeEventLog.Nakamoto(lastBlockTime, tenureHeight, consensusHash,
                "0x" + Hex.encodeBare(traffic.bytes(65)), signatures(), bitvec(), cycle, rewardSet, chain.epoch);
        NodeEventLog.Block payload = new NodeEventLog.Block(height, blockHash,
                ChainGenerator.indexBlockHash(blockHash, consensusHash), parent.blockHash(), parent.indexBlockHash(),
                null, 0, chain.burn, parent.burn(), minerTxid, placed, rewards, fields);
        Mined block = new Mined(payload, miner, 0, txs, false, extendsTenure);
        chain.log.block(chain.clock, payload, ChainGenerator.POX_UNLOCK_HEIGHTS);
        chain.count(block);
        chain.tip = block;
        tenure.add(block);
        if (catchUpTo >= 0 && height > catchUpTo) {
            catchUpTo = -1;
        }
    }

    /**
     * A tenure change's {@code previous_tenure_end}: the block's id (index block hash). The earlier
     * part of a log keeps the block hash it was first written with.
     */
    private String tenureEnd(Mined block) {
        return chain.epoch.today() ? block.payload().indexBlockHash() : block.payload().blockHash();
    }

    /**
     * Epoch 3.3 and later (SIP-034): a miner may extend its tenure several times, by the budget
     * dimension it ran out of or in all of them; the per-dimension causes come early once each.
     */
    private boolean extendsNow() {
        return random.nextInt(dueCauses.isEmpty() ? 40 : 3) == 0;
    }

    private TenureChangeCause cause() {
        TenureChangeCause due = dueCauses.poll();
        return due != null ? due : TenureChangeCause.values()[random.nextInt(1, 7)];
    }

    /** One signature per signer that signed: all of them, now and then all but one. */
    private List<String> signatures() {
        int signed = random.nextInt(10) == 0 ? SIGNERS - 1 : SIGNERS;
        List<String> signatures = new ArrayList<>(signed);
        for (int i = 0; i < signed; i++) {
            signatures.add(Hex.encodeBare(traffic.bytes(65)));
        }
        return signatures;
    }

    /** The node's bit vector form: signer count (u16), byte length (u32), then the bits. */
    private static String bitvec() {
        int bytes = (SIGNERS + 7) / 8;
        StringBuilder hex = new StringBuilder(String.format("%04x%08x", SIGNERS, bytes));
        for (int i = 0; i < bytes; i++) {
            int bits = Math.min(8, SIGNERS - i * 8);
            hex.append(String.format("%02x", (1 << bits) - 1));
        }
        return hex.toString();
    }

    private static final String BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

    /**
     * A Bitcoin mainnet P2PKH address (version 0, Base58Check) of a key hash, as the node lists
     * reward addresses. Only the generator needs one, so it is written here rather than taking a
     * Bitcoin library into the server.
     */
    static String p2pkhAddress(byte[] hash160) {
        byte[] payload = new byte[25];
        System.arraycopy(hash160, 0, payload, 1, 20);
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            byte[] check = sha.digest(sha.digest(java.util.Arrays.copyOf(payload, 21)));
            System.arraycopy(check, 0, payload, 21, 4);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        java.math.BigInteger n = new java.math.BigInteger(1, payload);
        StringBuilder out = new StringBuilder();
        java.math.BigInteger base = java.math.BigInteger.valueOf(58);
        while (n.signum() > 0) {
            java.math.BigInteger[] qr = n.divideAndRemainder(base);
            out.append(BASE58.charAt(qr[1].intValue()));
            n = qr[0];
        }
        for (int i = 0; i < payload.length && payload[i] == 0; i++) {
            out.append('1');
        }
        return out.reverse().toString();
    }

    private NodeEventLog.RewardSet rewardSet() {
        if (chain.epoch.atLeast(Epoch.E4_0)) {
            // A pox-5 (waterfall) reward set: signers only.
            return new NodeEventLog.RewardSet(signers, null, List.of());
        }
        List<String> rewarded = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            rewarded.add(p2pkhAddress(traffic.bytes(20)));
        }
        return new NodeEventLog.RewardSet(signers, Long.toString(random.nextLong(100_000L, 200_000L) * Traffic.STX),
                rewarded);
    }
}
