package io.stacksexplorer.generate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TenureChangeCause;
import io.stacksexplorer.codec.tx.TransactionPayload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Nakamoto era of the generated chain behaves as the Nakamoto rules do: tenures of many small
 * blocks opened by a tenure change and a coinbase, {@code block_time} strictly increasing and
 * seconds apart, {@code tenure_height} the count of coinbases, no microblocks, forks that replace
 * only a tenure's last blocks; a mixed log turns Nakamoto once, at the burn height its summary
 * names; initial balances come from the genesis block, never from a coinbase.
 */
class NakamotoEraTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TRANSACTIONS = 12_000;

    private record Line(String path, JsonNode body) {
    }

    private static List<Line> lines;
    private static GeneratorSummary summary;
    /** Every block by index hash, and the canonical chain (walked back from the tip), oldest first. */
    private static final Map<String, JsonNode> blocks = new HashMap<>();
    private static final List<JsonNode> canonical = new ArrayList<>();

    @BeforeAll
    static void generateOnce() throws IOException {
        StringWriter out = new StringWriter();
        summary = new ChainGenerator(21, Era.MIXED).generate(TRANSACTIONS, out, n -> { });
        lines = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            String[] c = line.split("\t", 4);
            JsonNode body = JSON.readTree(c[3]);
            lines.add(new Line(c[2], body));
            if (c[2].equals("/new_block")) {
                blocks.put(body.get("index_block_hash").asText(), body);
            }
        }
        for (JsonNode b = blocks.values().stream().filter(x -> x.get("index_block_hash").asText()
                .equals(summary.tipIndexBlockHash())).findFirst().orElseThrow(); b != null;
             b = blocks.get(b.get("parent_index_block_hash").asText())) {
            canonical.add(0, b);
        }
    }

    private static boolean nakamoto(JsonNode block) {
        return block.has("signer_signature_hash");
    }

    /** A Bitcoin-originated operation: no Stacks transaction to decode. */
    private static boolean isBurnchainOperation(JsonNode tx) {
        return tx.get("raw_tx").asText().equals("0x00");
    }

    private static StacksTransaction decode(JsonNode tx) {
        return StacksTransaction.decodeHex(tx.get("raw_tx").asText());
    }

    @Test
    void aMixedLogTurnsNakamotoOnceAtTheActivationBurnHeightAndHasNoMicroblocksAfter() {
        long activation = summary.epoch3ActivationBurnHeight();
        assertTrue(activation > 0);
        boolean seenNakamoto = false;
        for (Line line : lines) {
            if (line.path().equals("/new_block")) {
                boolean n = nakamoto(line.body());
                assertTrue(!seenNakamoto || n, "no 2.x block after the first Nakamoto block");
                assertEquals(n, line.body().get("burn_block_height").asLong() >= activation,
                        "Nakamoto exactly from the activation burn height");
                seenNakamoto |= n;
            } else if (line.path().equals("/new_microblocks")) {
                assertFalse(seenNakamoto, "no microblocks in the Nakamoto era");
            }
        }
        // Block 0 is served as part of block 1, so the summary counts blocks from height 1.
        assertEquals(canonical.size() - 1, summary.blocks());
        long twoX = canonical.stream().filter(b -> !nakamoto(b)).count() - 1;
        assertEquals(Map.of("2", twoX, "3", canonical.size() - 1 - twoX), summary.blocksByEra());
        assertTrue(twoX > 20 && canonical.size() - twoX > 500, summary.blocksByEra().toString());
    }

    @Test
    void tenuresOpenWithATenureChangeAndACoinbaseAndTheirHeightCountsCoinbases() {
        String consensus = null;
        long tenureHeight = -1;
        int tenures = 0;
        int extensions = 0;
        java.util.Set<TenureChangeCause> causes = java.util.EnumSet.noneOf(TenureChangeCause.class);
        List<Integer> lengths = new ArrayList<>();
        int length = 0;
        for (JsonNode block : canonical) {
            List<StacksTransaction> txs = new ArrayList<>();
            block.get("transactions").forEach(t -> {
                if (!isBurnchainOperation(t)) {
                    txs.add(decode(t));
                }
            });
            long coinbases = txs.stream().filter(t -> t.payload() instanceof TransactionPayload.Coinbase).count();
            if (!nakamoto(block)) {
                assertEquals(block.get("block_height").asLong() == 0 ? 0 : 1, coinbases, "one coinbase per 2.x block");
                tenureHeight = block.get("block_height").asLong();
                continue;
            }
            boolean opens = !block.get("consensus_hash").asText().equals(consensus);
            if (opens) {
                if (consensus != null) {
                    lengths.add(length);
                }
                consensus = block.get("consensus_hash").asText();
                tenureHeight++;
                tenures++;
                length = 0;
                assertTrue(txs.get(0).payload() instanceof TransactionPayload.TenureChange tc
                        && tc.cause() == TenureChangeCause.BLOCK_FOUND, "a tenure opens with BLOCK_FOUND");
                assertTrue(txs.get(1).payload() instanceof TransactionPayload.Coinbase cb && cb.vrfProof().isPresent(),
                        "then its coinbase, with a VRF proof");
                assertEquals(1, coinbases);
            } else {
                assertEquals(0, coinbases, "one coinbase per tenure");
                for (StacksTransaction tx : txs) {
                    if (tx.payload() instanceof TransactionPayload.TenureChange tc) {
                        if (block.has("pox_v4_unlock_height")) {
                            // Epoch 3.3 and later (SIP-034): extended in all dimensions or in one.
                            assertTrue(tc.cause().code() >= 1, tc.cause().toString());
                            causes.add(tc.cause());
                        } else {
                            assertEquals(TenureChangeCause.EXTENDED, tc.cause());
                        }
                        extensions++;
                    }
                }
            }
            length++;
            assertEquals(tenureHeight, block.get("tenure_height").asLong(), "tenure height = coinbase height");
            assertEquals(block.get("block_hash").asText(), block.get("signer_signature_hash").asText());
            assertTrue(block.get("signer_signature").size() >= 10);
            assertEquals("0x" + "00".repeat(32), block.get("parent_microblock").asText());
        }
        assertEquals(summary.tenures(), tenures);
        assertTrue(extensions > 0, "a tenure was extended");
        assertTrue(causes.containsAll(List.of(TenureChangeCause.EXTENDED_RUNTIME, TenureChangeCause.EXTENDED_READ_COUNT,
                TenureChangeCause.EXTENDED_READ_LENGTH, TenureChangeCause.EXTENDED_WRITE_COUNT,
                TenureChangeCause.EXTENDED_WRITE_LENGTH)), "each SIP-034 cause: " + causes);
        long several = lengths.stream().filter(n -> n >= 3 && n <= 120).count();
        assertTrue(several >= lengths.size() * 0.9, "tenures of several to dozens of blocks: " + lengths);
    }

    @Test
    void blockTimesIncreaseStrictlySecondsApartAndBlocksHoldMostlyOneToTenTransactions() {
        long previous = -1;
        int small = 0;
        int nakamotoBlocks = 0;
        for (JsonNode block : canonical) {
            if (!nakamoto(block)) {
                continue;
            }
            long time = block.get("block_time").asLong();
            if (previous >= 0) {
                assertTrue(time > previous && time - previous <= 60, "seconds apart: " + previous + " -> " + time);
            }
            assertTrue(time >= block.get("burn_block_time").asLong());
            previous = time;
            int txs = block.get("transactions").size();
            small += txs >= 1 && txs <= 10 ? 1 : 0;
            nakamotoBlocks++;
        }
        assertTrue(small > nakamotoBlocks * 0.75, small + " of " + nakamotoBlocks + " blocks hold 1-10 transactions");
    }

    @Test
    void aNakamotoForkReplacesOnlyTheLastBlocksOfATenure() {
        int replaced = 0;
        for (JsonNode block : blocks.values()) {
            if (!nakamoto(block) || canonical.contains(block)) {
                continue;
            }
            replaced++;
            // An orphaned block's tenure also has canonical blocks: only its tail was replaced.
            String consensus = block.get("consensus_hash").asText();
            assertTrue(canonical.stream().anyMatch(b -> nakamoto(b) && b.get("consensus_hash").asText()
                    .equals(consensus)), "the tenure's first blocks stay canonical");
            assertTrue(block.get("transactions").size() >= 1);
        }
        assertTrue(replaced >= 1 && replaced <= 3 * (summary.reorgs()), "replaced " + replaced);
        assertTrue(summary.reorgs() >= 2, "a 2.x fork and a Nakamoto fork");
    }

    @Test
    void balancesComeFromTheGenesisBlockAndNoCoinbaseMints() {
        JsonNode genesis = canonical.get(0);
        assertEquals(0, genesis.get("block_height").asLong());
        Map<String, String> txTypes = new HashMap<>();
        for (JsonNode block : blocks.values()) {
            block.get("transactions").forEach(t -> txTypes.put(t.get("txid").asText(),
                    isBurnchainOperation(t) ? "burnchain_op" : decode(t).payload().getClass().getSimpleName()));
        }
        int genesisMints = 0;
        for (JsonNode block : blocks.values()) {
            for (JsonNode e : block.get("events")) {
                if (e.get("type").asText().equals("stx_mint_event")) {
                    assertFalse(txTypes.get(e.get("txid").asText()).equals("Coinbase"), "no mint on a coinbase");
                    if (block == genesis) {
                        genesisMints++;
                    }
                }
            }
        }
        assertTrue(genesisMints > 6_000, "the genesis block funds the accounts: " + genesisMints);
        assertNull(genesis.get("signer_signature_hash"));
        assertNotNull(summary.hotAddress());
    }
}
