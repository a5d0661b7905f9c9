package io.stacksexplorer.generate;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.generate.NodeEventLog.Placed;
import io.stacksexplorer.generate.NodeEventLog.Reward;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Stacks 2.x era of the log: one block per burn block ({@link #round}), now and then a
 * microblock stream that the next block confirms (or partly orphans), and now and then a short
 * fork that re-mines the last one or two blocks under other miners.
 */
abstract class StacksTwoRounds extends MempoolFeed {

    Mined beforeTip;
    List<Placed> stream = List.of();
    /** How many of the stream's transactions the next block confirms (the rest were forked off). */
    int streamConfirmed;

    StacksTwoRounds(long seed, Era era) {
        super(seed, era);
    }

    // --- one Stacks block -------------------------------------------------------------------------

    void round(long height, long budget) throws IOException {
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
    int blockSize() {
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

    Mined mine(long height, Parent parent, Account miner, long coinbaseNonce, List<GeneratedTx> anchored,
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

    // --- forks ------------------------------------------------------------------------------------

    /**
     * A short fork: siblings of the last one or two blocks arrive (stored as non-canonical: not
     * higher than the tip), re-mining the same transactions under other miners; the next round's
     * block builds on the last sibling, which makes that fork the longer one. The orphaned miners'
     * coinbases never become canonical, so their nonces are handed back; a fork is skipped when a
     * miner signed anything after its coinbase (the nonce could not be handed back).
     */
    boolean fork(List<Mined> orphaned) throws IOException {
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
    void microblockStream(int maxTransactions) throws IOException {
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
}
