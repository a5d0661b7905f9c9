package io.stacksexplorer.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.tx.SpendingCondition;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionEncoder;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.query.ChangeQueries;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.RawPayload;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replace-by-fee as served (spec: {@code replaced_by_tx_id}): transactions that spend one account
 * nonce are rivals; a mined one replaces the pending others, the highest fee stays while none is
 * mined, the node's {@code new_txid} is kept, a reorg returns what the orphaned transaction had
 * replaced. Rivals are built from the demo chain's own transactions (same origin and nonce, another
 * fee, so another id); every answer is checked against the spec by {@link ApiServer#get}.
 */
abstract class ReplaceByFeeContract {

    private static final List<NewBlock> CHAIN = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks();

    abstract TestDatabase database();

    @Test
    void aMinedTransactionReplacesItsPendingRivalsWhateverTheirFee() {
        NewBlock block = CHAIN.get(19);
        NewTransaction mined = lastNonCoinbase(block);
        String rival = rival(mined.rawTx(), 1_000_000);
        String sender = senderOf(mined.rawTx());
        try (ApiServer api = ApiServer.start(database())) {
            writeUpTo(api, 19);
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(rival, 1704000000L)));
            assertEquals("pending", status(api, idOf(rival)));
            assertTrue(lookup(api, idOf(rival)).get("replaced_by_tx_id").isNull(), "pending: replaced by nothing");
            assertEquals(1, mempoolTotal(api, sender));

            api.writer().writeBlock(block);

            JsonNode replaced = lookup(api, idOf(rival));
            assertEquals("dropped_replace_by_fee", replaced.get("tx_status").asText());
            assertEquals(mined.txId(), replaced.get("replaced_by_tx_id").asText());
            assertEquals(0, mempoolTotal(api, sender));
            JsonNode winner = lookup(api, mined.txId());
            assertEquals(block.blockHash(), winner.get("block_hash").asText());
            assertTrue(winner.get("replaced_by_tx_id").isNull(), "every lookup result carries it; mined: null");
        }
    }

    @Test
    void whileNoneIsMinedTheHighestFeeStaysThenTheLatestReceived() {
        String base = lastNonCoinbase(CHAIN.get(19)).rawTx();
        String low = rival(base, 10);
        String high = rival(base, 500);
        String lower = rival(base, 5);
        String sameFeeLater = rival(base, 500, 1);
        String sender = senderOf(base);
        try (ApiServer api = ApiServer.start(database())) {
            writeUpTo(api, 19);
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(low, 1704000000L)));
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(high, 1704000010L)));
            assertReplaced(api, low, high);
            assertEquals("pending", status(api, idOf(high)));

            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(lower, 1704000020L)));
            assertReplaced(api, lower, high);

            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(sameFeeLater, 1704000030L)));
            assertReplaced(api, high, sameFeeLater);
            JsonNode page = api.get("/extended/v1/address/" + sender + "/mempool").body();
            assertEquals(1, page.get("total").asLong());
            assertEquals(idOf(sameFeeLater), page.at("/results/0/tx_id").asText());
            assertTrue(page.at("/results/0/replaced_by_tx_id").isNull());
        }
    }

    /** A replay writes many payloads in one database transaction, mempool rows held back: the same outcome. */
    @Test
    void aReplayBatchDecidesAsTheLiveFeed() {
        NewBlock block = CHAIN.get(19);
        NewTransaction mined = lastNonCoinbase(block);
        String low = rival(mined.rawTx(), 10);
        String high = rival(mined.rawTx(), 500);
        try (ApiServer api = ApiServer.start(database())) {
            writeUpTo(api, 19);
            api.writer().inOneTransaction(() -> {
                api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(low, 1704000000L)));
                api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(high, 1704000010L)));
                api.writer().writeBlock(block);
                return null;
            });
            assertReplaced(api, low, high);
            assertEquals(mined.txId(), lookup(api, idOf(high)).get("replaced_by_tx_id").asText(),
                    "then the mined one replaced the pending winner");
        }
    }

    /** A sponsored transaction spends its sponsor's nonce too: the sponsor's own transaction with it is a rival. */
    @Test
    void aSponsoredTransactionReplacesTheSponsorsOwnTransactionWithThatNonce() {
        int at = firstBlockWithSponsored();
        NewBlock block = CHAIN.get(at);
        NewTransaction sponsored = block.transactions().stream()
                .filter(tx -> StacksTransaction.decodeHex(tx.rawTx()).sponsor().isPresent()).findFirst().orElseThrow();
        StacksTransaction decoded = StacksTransaction.decodeHex(sponsored.rawTx());
        SpendingCondition sponsor = decoded.sponsor().orElseThrow();
        String sponsorsOwn = TransactionEncoder.encodeHex(new StacksTransaction("0x", decoded.version(),
                decoded.chainId(), withFee(sponsor, BigInteger.valueOf(777)), Optional.empty(), decoded.anchorMode(),
                decoded.postConditionMode(), decoded.postConditions(), decoded.payload()));
        try (ApiServer api = ApiServer.start(database())) {
            writeUpTo(api, at);
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(sponsorsOwn, 1704000000L)));
            assertEquals("pending", status(api, idOf(sponsorsOwn)));

            api.writer().writeBlock(block);

            assertEquals("dropped_replace_by_fee", status(api, idOf(sponsorsOwn)));
            assertEquals(sponsored.txId(), lookup(api, idOf(sponsorsOwn)).get("replaced_by_tx_id").asText());
        }
    }

    @Test
    void theNodesNewTxidIsKeptWhateverTheReason() {
        String base = lastNonCoinbase(CHAIN.get(19)).rawTx();
        String dropped = rival(base, 10);
        String other = "0x" + "ab".repeat(32);
        try (ApiServer api = ApiServer.start(database())) {
            writeUpTo(api, 19);
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(dropped, 1704000000L)));
            String body = "{\"dropped_txids\":[\"" + idOf(dropped) + "\"],\"reason\":\"ReplaceAcrossFork\","
                    + "\"new_txid\":\"" + other + "\"}";
            api.writer().dropMempoolTransactions(List.of(idOf(dropped)), "dropped_replace_across_fork", other,
                    RawPayload.received("/drop_mempool_tx", body, 1704000100L));
            JsonNode result = lookup(api, idOf(dropped));
            assertEquals("dropped_replace_across_fork", result.get("tx_status").asText());
            assertEquals(other, result.get("replaced_by_tx_id").asText());
        }
    }

    @Test
    void aReorgReturnsWhatTheOrphanedTransactionReplaced() {
        NewBlock b20 = CHAIN.get(19);
        NewTransaction onlyInOriginal = b20.transactions().get(b20.transactions().size() - 1);
        String rival = rival(onlyInOriginal.rawTx(), 10);
        NewBlock fork20 = new NewBlock("0x" + "f0".repeat(32), "0x" + "e0".repeat(32), b20.height(),
                b20.parentBlockHash(), b20.parentIndexBlockHash(), b20.parentMicroblockHash(),
                b20.parentMicroblockSequence(), b20.blockTime(), b20.burnBlockTime(), b20.burnBlockHash(),
                b20.burnBlockHeight(), b20.parentBurnBlockTime(), b20.minerTxid(),
                b20.transactions().subList(0, b20.transactions().size() - 1));
        NewBlock b21 = CHAIN.get(20);
        NewBlock fork21 = new NewBlock("0x" + "f1".repeat(32), "0x" + "e1".repeat(32), 21, fork20.blockHash(),
                fork20.indexBlockHash(), b21.parentMicroblockHash(), 0, b21.blockTime(), b21.burnBlockTime(),
                b21.burnBlockHash(), b21.burnBlockHeight(), b21.parentBurnBlockTime(), b21.minerTxid(),
                List.of(b21.transactions().get(0)));
        try (ApiServer api = ApiServer.start(database())) {
            writeUpTo(api, 19);
            api.writer().addMempoolTransactions(List.of(new NewMempoolTransaction(rival, 1704000000L)));
            api.writer().writeBlock(b20);
            assertReplaced(api, rival, onlyInOriginal.rawTx());

            api.writer().writeBlock(fork20);
            ChangeQueries changes = api.context().getBean(ChangeQueries.class);
            long before = changes.head();
            assertTrue(api.writer().writeBlock(fork21).reorg());
            // Its state changed with the reorg: logged, so subscribers and kept answers hear of it.
            assertTrue(changes.after(before, 1_000).stream()
                    .anyMatch(c -> c.kind().equals("tx") && idOf(rival).equals(c.txId())), "the returned one is logged");
            assertEquals("pending", status(api, onlyInOriginal.txId()), "only the orphaned block mined it");
            JsonNode returned = lookup(api, idOf(rival));
            assertEquals("pending", returned.get("tx_status").asText(), "what it replaced returns with it");
            assertTrue(returned.get("replaced_by_tx_id").isNull());
            assertEquals(2, mempoolTotal(api, senderOf(rival)));

            api.writer().writeBlock(b21);
            api.writer().writeBlock(CHAIN.get(21));
            assertEquals(b20.blockHash(), lookup(api, onlyInOriginal.txId()).get("block_hash").asText());
            assertReplaced(api, rival, onlyInOriginal.rawTx());
            assertEquals(0, mempoolTotal(api, senderOf(rival)));
        }
    }

    // ------------------------------------------------------------------------------------------

    private static void writeUpTo(ApiServer api, int exclusive) {
        for (NewBlock block : CHAIN.subList(0, exclusive)) {
            api.writer().writeBlock(block);
        }
    }

    private static int firstBlockWithSponsored() {
        for (int i = 1; i < CHAIN.size(); i++) {
            if (CHAIN.get(i).transactions().stream()
                    .anyMatch(tx -> !tx.rawTx().equals("0x00") && isSponsored(tx.rawTx()))) {
                return i;
            }
        }
        throw new AssertionError("the demo chain has a sponsored transaction");
    }

    private static boolean isSponsored(String rawTx) {
        try {
            return StacksTransaction.decodeHex(rawTx).sponsor().isPresent();
        } catch (RuntimeException notDecodable) {
            return false;
        }
    }

    private static NewTransaction lastNonCoinbase(NewBlock block) {
        NewTransaction last = block.transactions().get(block.transactions().size() - 1);
        assertFalse(StacksTransaction.decodeHex(last.rawTx()).sponsor().isPresent(), "a standard transaction");
        return last;
    }

    /** The same transaction (origin, nonce, payload) with another fee, and so another id. */
    private static String rival(String rawTx, long fee) {
        return rival(rawTx, fee, 0);
    }

    /** {@code variant} > 0 changes the memo-free part that does not matter here: the anchor mode. */
    private static String rival(String rawTx, long fee, int variant) {
        StacksTransaction tx = StacksTransaction.decodeHex(rawTx);
        io.stacksexplorer.codec.tx.AnchorMode mode = variant == 0 ? tx.anchorMode()
                : io.stacksexplorer.codec.tx.AnchorMode.values()[(tx.anchorMode().ordinal() + variant)
                % io.stacksexplorer.codec.tx.AnchorMode.values().length];
        return TransactionEncoder.encodeHex(new StacksTransaction("0x", tx.version(), tx.chainId(),
                withFee(tx.origin(), BigInteger.valueOf(fee)), tx.sponsor(), mode, tx.postConditionMode(),
                tx.postConditions(), tx.payload()));
    }

    private static SpendingCondition withFee(SpendingCondition condition, BigInteger fee) {
        if (condition instanceof SpendingCondition.SingleSig s) {
            return new SpendingCondition.SingleSig(s.hashMode(), s.signer(), s.nonce(), fee, s.keyEncoding(),
                    s.signature());
        }
        SpendingCondition.MultiSig m = (SpendingCondition.MultiSig) condition;
        return new SpendingCondition.MultiSig(m.hashMode(), m.signer(), m.nonce(), fee, m.fields(),
                m.signaturesRequired());
    }

    private static String idOf(String rawTx) {
        return Sha512_256.txId(Hex.decode(rawTx));
    }

    private static String senderOf(String rawTx) {
        return StacksTransaction.decodeHex(rawTx).senderAddress().toString();
    }

    private static void assertReplaced(ApiServer api, String loserRawTx, String winnerRawTx) {
        JsonNode loser = lookup(api, idOf(loserRawTx));
        assertEquals("dropped_replace_by_fee", loser.get("tx_status").asText());
        assertEquals(idOf(winnerRawTx), loser.get("replaced_by_tx_id").asText());
    }

    private static String status(ApiServer api, String txId) {
        return lookup(api, txId).get("tx_status").asText();
    }

    private static JsonNode lookup(ApiServer api, String txId) {
        JsonNode entry = api.get("/extended/v1/tx/multiple?tx_id=" + txId).body().get(txId);
        assertTrue(entry != null && entry.get("found").asBoolean(), txId + " not found");
        return entry.get("result");
    }

    private static long mempoolTotal(ApiServer api, String address) {
        return api.get("/extended/v1/address/" + address + "/mempool").body().get("total").asLong();
    }
}
