package io.stacksexplorer.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.write.BlockWriteResult;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.stacksexplorer.http.ApiEndpointsContract.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fork written through the write path changes the answers: a sibling of the tip changes
 * nothing until its fork becomes the longer one; then the orphaned block and its transactions
 * disappear, a transaction only it had mined returns to the mempool, counters follow, and
 * switching back (the old fork growing longer again) restores everything. Replaying a stored
 * block changes nothing.
 */
abstract class ReorgContract {

    abstract TestDatabase database();

    @Test
    void forkAndSwitchBack() {
        List<NewBlock> chain = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().subList(0, 22);
        NewBlock b20 = chain.get(19);
        NewBlock b21 = chain.get(20);
        NewBlock b22 = chain.get(21);
        // The transaction only the original block 20 mines: the last one, not the coinbase.
        NewTransaction onlyInOriginal = b20.transactions().get(b20.transactions().size() - 1);
        String sender = StacksTransaction.decodeHex(onlyInOriginal.rawTx()).senderAddress().toString();
        NewTransaction shared = b20.transactions().get(0);

        NewBlock fork20 = sibling(b20, "f0", b20.transactions().subList(0, b20.transactions().size() - 1));
        NewBlock fork21 = new NewBlock("0x" + "f1".repeat(32), "0x" + "e1".repeat(32), 21, fork20.blockHash(),
                fork20.indexBlockHash(), b21.parentMicroblockHash(), 0, b21.blockTime(), b21.burnBlockTime(),
                b21.burnBlockHash(), b21.burnBlockHeight(), b21.parentBurnBlockTime(), b21.minerTxid(),
                List.of(b21.transactions().get(0)));

        try (ApiServer api = ApiServer.start(database())) {
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(onlyInOriginal.rawTx(), 1704000000L)));
            for (NewBlock block : chain.subList(0, 20)) {
                api.writer().writeBlock(block);
            }
            long historyBefore = total(api, sender);
            assertEquals(0, mempoolTotal(api, sender), "mined, so no longer pending");

            // A sibling of the tip is stored but changes nothing.
            BlockWriteResult sibling = api.writer().writeBlock(fork20);
            assertFalse(sibling.alreadyStored() || sibling.reorg());
            assertEquals(b20.blockHash(), api.get("/extended/v2/blocks/20").body().get("hash").asText());
            assertProblem(api.get("/extended/v2/blocks/" + fork20.blockHash()), 404, null);

            // Its child makes the fork the longer one: 20' and 21' replace 20.
            BlockWriteResult fork = api.writer().writeBlock(fork21);
            assertEquals(List.of(b20.indexBlockHash()), fork.orphaned());
            assertEquals(List.of(fork20.indexBlockHash()), fork.restored());
            assertEquals(fork20.blockHash(), api.get("/extended/v2/blocks/20").body().get("hash").asText());
            assertEquals(fork21.blockHash(), api.get("/extended/v2/blocks/latest").body().get("hash").asText());
            assertProblem(api.get("/extended/v2/blocks/" + b20.blockHash()), 404, null);
            assertEquals(fork20.blockHash(), lookup(api, shared.txId()).at("/result/block_hash").asText(),
                    "mined on both forks: served from the canonical one");
            JsonNode returned = lookup(api, onlyInOriginal.txId()).get("result");
            assertTrue(returned.has("receipt_time"), "only the orphaned block mined it: back in the mempool");
            assertEquals(historyBefore - 1, total(api, sender));
            assertEquals(1, mempoolTotal(api, sender));
            assertEquals(21, api.get("/extended").body().at("/chain_tip/block_height").asLong());
            assertEquals(fork21.blockHash(), api.get("/extended").body().at("/chain_tip/block_hash").asText());

            // Switch back: the original 21 is only a sibling of 21'; the original 22 makes its fork longer.
            assertFalse(api.writer().writeBlock(b21).reorg());
            assertEquals(fork21.blockHash(), api.get("/extended/v2/blocks/latest").body().get("hash").asText());
            BlockWriteResult back = api.writer().writeBlock(b22);
            assertTrue(back.restored().containsAll(List.of(b20.indexBlockHash(), b21.indexBlockHash())));
            assertTrue(back.orphaned().containsAll(List.of(fork20.indexBlockHash(), fork21.indexBlockHash())));
            assertEquals(b20.blockHash(), api.get("/extended/v2/blocks/20").body().get("hash").asText());
            assertProblem(api.get("/extended/v2/blocks/" + fork21.indexBlockHash()), 404, null);
            assertEquals(b20.blockHash(), lookup(api, onlyInOriginal.txId()).at("/result/block_hash").asText());
            assertEquals(historyBefore + countInvolving(b21, sender) + countInvolving(b22, sender), total(api, sender));
            assertEquals(0, mempoolTotal(api, sender));

            // Replays are acknowledged and ignored.
            assertTrue(api.writer().writeBlock(fork20).alreadyStored());
            assertTrue(api.writer().writeBlock(b20).alreadyStored());
            assertEquals(b22.blockHash(), api.get("/extended/v2/blocks/latest").body().get("hash").asText());
            assertEquals(historyBefore + countInvolving(b21, sender) + countInvolving(b22, sender), total(api, sender));
        }
    }

    /**
     * The writer keeps the pending mempool ids in memory (PendingMempool); a database transaction
     * that rolls back must leave them as the database has them. Here a block that mines a pending
     * transaction is rolled back: written again afterwards, it must still take the transaction out
     * of the mempool (a cache that kept the rolled-back change would leave it pending forever).
     */
    @Test
    void rolledBackBlockLeavesThePendingMempoolAsStored() {
        List<NewBlock> chain = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().subList(0, 20);
        NewBlock b20 = chain.get(19);
        NewTransaction mined = b20.transactions().get(b20.transactions().size() - 1);
        String sender = StacksTransaction.decodeHex(mined.rawTx()).senderAddress().toString();
        try (ApiServer api = ApiServer.start(database())) {
            for (NewBlock block : chain.subList(0, 19)) {
                api.writer().writeBlock(block);
            }
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(mined.rawTx(), 1704000000L)));
            assertEquals(1, mempoolTotal(api, sender));

            IllegalStateException crash = new IllegalStateException("crash after the block was written");
            assertEquals(crash, org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> api.writer().inOneTransaction(() -> {
                        api.writer().writeBlock(b20);
                        throw crash;
                    })));
            assertEquals(1, mempoolTotal(api, sender), "rolled back: still pending");
            assertTrue(lookup(api, mined.txId()).get("result").has("receipt_time"));

            api.writer().writeBlock(b20);
            assertEquals(0, mempoolTotal(api, sender), "mined now");
            assertEquals(b20.blockHash(), lookup(api, mined.txId()).at("/result/block_hash").asText());
        }
    }

    /**
     * The coinbase of an orphaned block can never be mined again: it is served from the mempool as
     * {@code pending} (never {@code success} without a block), then, 256 blocks later, as the peer
     * does, {@code dropped_stale_garbage_collect}; so is an announced transaction nobody mined.
     */
    @Test
    void anOrphanedCoinbaseIsPendingThenGarbageCollected() {
        List<NewBlock> chain = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().subList(0, 20);
        NewBlock b20 = chain.get(19);
        NewTransaction coinbase = b20.transactions().get(0);
        assertEquals("coinbase", StacksTransaction.decodeHex(coinbase.rawTx()).payload().getClass().getSimpleName()
                .toLowerCase(java.util.Locale.ROOT));
        String miner = StacksTransaction.decodeHex(coinbase.rawTx()).senderAddress().toString();
        NewBlock fork20 = sibling(b20, "f0", b20.transactions().subList(1, b20.transactions().size()));
        try (ApiServer api = ApiServer.start(database())) {
            for (NewBlock block : chain.subList(0, 18)) {
                api.writer().writeBlock(block);
            }
            // Announced at height 18 and never mined (a node would normally drop it itself).
            String stray = strayOf();
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(stray, 1704000000L)));
            String strayId = io.stacksexplorer.codec.Sha512_256.txId(io.stacksexplorer.codec.Hex.decode(stray));
            api.writer().writeBlock(chain.get(18));
            api.writer().writeBlock(b20);
            api.writer().writeBlock(fork20);
            NewBlock tip = emptyChild(fork20, 21);
            assertTrue(api.writer().writeBlock(tip).reorg());

            JsonNode orphaned = lookup(api, coinbase.txId()).get("result");
            assertEquals("pending", orphaned.get("tx_status").asText(), "never success without a block");
            assertFalse(orphaned.has("block_height"));
            assertEquals(1, mempoolTotal(api, miner));

            // Pending for 255 blocks: still pending; the 256th block after its return collects it.
            for (long height = 22; height < 18 + 256; height++) {
                tip = emptyChild(tip, height);
                api.writer().writeBlock(tip);
            }
            assertEquals("pending", lookup(api, strayId).at("/result/tx_status").asText());
            io.stacksexplorer.query.ChangeQueries changes = api.context().getBean(io.stacksexplorer.query.ChangeQueries.class);
            long before = changes.head();
            for (long height = 18 + 256; height < 21 + 256; height++) {
                tip = emptyChild(tip, height);
                api.writer().writeBlock(tip);
            }
            assertEquals("dropped_stale_garbage_collect", lookup(api, strayId).at("/result/tx_status").asText(),
                    "received at 18, collected at 274");
            // A new state: logged, so subscribers and kept answers (issue 48) hear of it.
            assertTrue(changes.after(before, 1_000).stream()
                    .anyMatch(c -> c.kind().equals("tx") && strayId.equals(c.txId())), "the collection is logged");
            assertEquals("pending", lookup(api, coinbase.txId()).at("/result/tx_status").asText());
            api.writer().writeBlock(emptyChild(tip, 21 + 256));
            assertEquals("dropped_stale_garbage_collect", lookup(api, coinbase.txId()).at("/result/tx_status")
                    .asText());
            assertEquals(0, mempoolTotal(api, miner));
        }
    }

    /** A transaction of the demo chain's future (block 30), announced early and never mined here. */
    private static String strayOf() {
        return DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().get(30).transactions().get(1).rawTx();
    }

    private static NewBlock emptyChild(NewBlock parent, long height) {
        String hash = String.format("0x%064x", 0xabc000000L + height);
        String index = String.format("0x%064x", 0xdef000000L + height);
        return new NewBlock(hash, index, height, parent.blockHash(), parent.indexBlockHash(),
                "0x" + "00".repeat(32), 0, parent.blockTime() + 10, parent.burnBlockTime() + 10,
                String.format("0x%064x", 0x123000000L + height), parent.burnBlockHeight() + 1,
                parent.burnBlockTime(), "0x" + "11".repeat(32), List.of());
    }

    private static NewBlock sibling(NewBlock original, String tag, List<NewTransaction> txs) {
        return new NewBlock("0x" + tag.repeat(32), "0x" + "e0".repeat(32), original.height(),
                original.parentBlockHash(), original.parentIndexBlockHash(), original.parentMicroblockHash(),
                original.parentMicroblockSequence(), original.blockTime(), original.burnBlockTime(),
                original.burnBlockHash(), original.burnBlockHeight(), original.parentBurnBlockTime(),
                original.minerTxid(), txs);
    }

    private static long countInvolving(NewBlock block, String principal) {
        return block.transactions().stream()
                .map(tx -> new DemoChainExpectations.Mined(block, tx, StacksTransaction.decodeHex(tx.rawTx())))
                .filter(m -> DemoChainExpectations.involves(m, principal))
                .count();
    }

    private static JsonNode lookup(ApiServer api, String txId) {
        JsonNode entry = api.get("/extended/v1/tx/multiple?tx_id=" + txId).body().get(txId);
        assertFalse(entry == null || !entry.get("found").asBoolean(), txId + " not found");
        return entry;
    }

    private static long total(ApiServer api, String address) {
        return api.get("/extended/v2/addresses/" + address + "/transactions").body().get("total").asLong();
    }

    private static long mempoolTotal(ApiServer api, String address) {
        return api.get("/extended/v1/address/" + address + "/mempool").body().get("total").asLong();
    }
}
