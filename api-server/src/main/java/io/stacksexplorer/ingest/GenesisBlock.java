package io.stacksexplorer.ingest;

import io.stacksexplorer.write.HeldTransaction;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.StoredPayload;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.regex.Pattern;

/**
 * The genesis block as the peer presents it: "block 0" is an internal detail of the node. Its
 * payload is kept raw (like every payload) but never written as a block; when block 1 arrives,
 * block 0's transactions — with their events, per-address rows and the boot contracts'
 * deployments — are written as part of block 1: block 1's height, hashes and burn data, canonical
 * with it, {@code tx_index} + 1 (block 1's own transactions keep theirs, as at the peer).
 *
 * <p>Block 0 is found among the stored payloads, so a restart between block 0 and block 1, a
 * {@code rebuild} and a replay of the same log all derive the same rows.
 */
public final class GenesisBlock {

    /** Cheap pre-filter before parsing a stored {@code /new_block} body. */
    private static final Pattern HEIGHT_ZERO = Pattern.compile("\"block_height\"\\s*:\\s*0\\s*[,}]");

    /** The last block 0 seen by this process (normally the one block 1 builds on). */
    private NewBlock last;

    boolean isGenesis(NewBlock block) {
        return block.height() == 0;
    }

    void remember(NewBlock genesis) {
        last = genesis;
    }

    /**
     * Block 1 with the genesis block's transactions in it, or block 1 unchanged when no block 0 was
     * delivered. Block 0 is the one block 1 builds on; when none matches (a node whose block 1 names
     * another parent), the last block 0 delivered before it.
     *
     * @param storedPayloads stored payloads after an id, in arrival order, a page at a time
     */
    NewBlock intoBlockOne(NewBlock blockOne, LongFunction<List<StoredPayload>> storedPayloads) {
        NewBlock genesis = last != null && last.indexBlockHash().equals(blockOne.parentIndexBlockHash()) ? last
                : find(blockOne.parentIndexBlockHash(), storedPayloads);
        return genesis == null ? blockOne : merge(genesis, blockOne);
    }

    private static List<HeldTransaction> held(NewBlock genesis, NewBlock blockOne) {
        List<HeldTransaction> held = new ArrayList<>(genesis.held().size() + blockOne.held().size());
        for (HeldTransaction tx : genesis.held()) {
            held.add(new HeldTransaction(tx.txId(), tx.txIndex() + 1, tx.status(), tx.reason(), tx.byteOffset()));
        }
        held.addAll(blockOne.held());
        return held;
    }

    /** Block 1 with block 0's transactions in front of its own, as the write path stores it. */
    public static NewBlock merge(NewBlock genesis, NewBlock blockOne) {
        List<NewTransaction> txs = new ArrayList<>(genesis.transactions().size() + blockOne.transactions().size());
        for (NewTransaction tx : genesis.transactions()) {
            txs.add(new NewTransaction(tx.txId(), tx.rawTx(), tx.txIndex() + 1, tx.status(), tx.rawResult(),
                    tx.cost(), null, 0, tx.contractAbi(), tx.vmError(), tx.events(), tx.facts()));
        }
        txs.addAll(blockOne.transactions());
        return new NewBlock(blockOne.blockHash(), blockOne.indexBlockHash(), blockOne.height(),
                blockOne.parentBlockHash(), blockOne.parentIndexBlockHash(), blockOne.parentMicroblockHash(),
                blockOne.parentMicroblockSequence(), blockOne.blockTime(), blockOne.burnBlockTime(),
                blockOne.burnBlockHash(), blockOne.burnBlockHeight(), blockOne.parentBurnBlockTime(),
                blockOne.minerTxid(), txs, blockOne.tenureHeight(), held(genesis, blockOne));
    }

    private NewBlock find(String parentIndexBlockHash, LongFunction<List<StoredPayload>> storedPayloads) {
        NewBlock latest = null;
        long after = 0;
        for (List<StoredPayload> page = storedPayloads.apply(after); !page.isEmpty(); page = storedPayloads.apply(after)) {
            for (StoredPayload payload : page) {
                after = payload.id();
                if (!payload.path().equals("/new_block") || !HEIGHT_ZERO.matcher(payload.body()).find()) {
                    continue;
                }
                NewBlock candidate;
                try {
                    candidate = NodePayloads.block(NodePayloads.parse(payload.body())).block();
                } catch (MalformedPayloadException e) {
                    continue;
                }
                if (candidate.height() != 0) {
                    continue;
                }
                if (candidate.indexBlockHash().equals(parentIndexBlockHash)) {
                    last = candidate;
                    return candidate;
                }
                latest = candidate;
            }
        }
        if (latest != null) {
            last = latest;
        }
        return latest;
    }
}
