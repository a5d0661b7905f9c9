package io.stacksexplorer.generate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionEncoder;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.codec.tx.TransactionVersion;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generated log read back independently of the generator: every line parsed as JSON, every
 * transaction decoded by the codec and re-encoded, every address and Clarity value checked, the
 * canonical chain worked out by the node's rule (a block becomes the tip only when higher than the
 * tip) and the summary recounted from it.
 */
class ChainGeneratorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SEED = 20_240_414L;
    private static final int TRANSACTIONS = 8_000;

    private record Line(long id, String time, String path, JsonNode body) {
    }

    private record Block(String indexBlockHash, String parent, long height, JsonNode body) {
    }

    private static GeneratorSummary summary;
    private static final List<Line> lines = new ArrayList<>();
    private static final Map<String, Block> blocks = new LinkedHashMap<>();
    private static final List<Block> canonical = new ArrayList<>();

    @BeforeAll
    static void generateOnce() throws IOException {
        StringWriter out = new StringWriter();
        summary = new ChainGenerator(SEED, Era.TWO).generate(TRANSACTIONS, out, n -> { });
        Block tip = null;
        for (String text : out.toString().split("\n")) {
            String[] c = text.split("\t", -1);
            assertEquals(4, c.length, "id, time, path, body: " + text.substring(0, Math.min(200, text.length())));
            Line line = new Line(Long.parseLong(c[0]), c[1], c[2], JSON.readTree(c[3]));
            lines.add(line);
            if (line.path().equals("/new_block")) {
                JsonNode b = line.body();
                Block block = new Block(b.get("index_block_hash").asText(), b.get("parent_index_block_hash").asText(),
                        b.get("block_height").asLong(), b);
                assertTrue(blocks.put(block.indexBlockHash(), block) == null, "block sent twice");
                if (tip == null || block.height() > tip.height()) {
                    tip = block;
                }
            }
        }
        for (Block b = tip; b != null; b = blocks.get(b.parent())) {
            canonical.add(0, b);
        }
    }

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherSeedOthers() throws IOException {
        String first = generate(7, 3_000);
        assertEquals(sha256(first), sha256(generate(7, 3_000)));
        assertNotEquals(sha256(first), sha256(generate(8, 3_000)));
    }

    @Test
    void linesAreNumberedAndTimedInOrderWithTheRecordedLogsTimestampForm() {
        String previous = "";
        for (int i = 0; i < lines.size(); i++) {
            Line line = lines.get(i);
            assertEquals(i + 1, line.id());
            assertTrue(line.time().matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6}\\+00"), line.time());
            assertTrue(line.time().compareTo(previous) >= 0, "time goes forward at line " + line.id());
            previous = line.time();
        }
    }

    @Test
    void everyTransactionDecodesReEncodesAndIsIdentifiedByTheHashOfItsBytes() {
        int checked = 0;
        for (Line line : lines) {
            switch (line.path()) {
                case "/new_block", "/new_microblocks" -> {
                    for (JsonNode tx : line.body().get("transactions")) {
                        StacksTransaction decoded = decodeAndCheck(tx.get("raw_tx").asText());
                        assertEquals(decoded.txId(), tx.get("txid").asText());
                        ClarityValue.decodeHex(tx.get("raw_result").asText());
                        checked++;
                    }
                }
                case "/new_mempool_tx" -> {
                    for (JsonNode raw : line.body()) {
                        decodeAndCheck(raw.asText());
                        checked++;
                    }
                }
                default -> {
                }
            }
        }
        assertTrue(checked > TRANSACTIONS, "checked " + checked);
    }

    @Test
    void everyAddressIsValidC32checkAndEveryClarityValueDecodes() {
        Set<String> fields = Set.of("sender", "recipient", "locked_address");
        for (Line line : lines) {
            if (!line.path().equals("/new_block") && !line.path().equals("/new_microblocks")) {
                continue;
            }
            for (JsonNode e : line.body().get("events")) {
                JsonNode d = e.get(e.get("type").asText());
                d.fields().forEachRemaining(f -> {
                    if (fields.contains(f.getKey())) {
                        principal(f.getValue().asText());
                    }
                });
                if (d.has("raw_value")) {
                    ClarityValue.decodeHex(d.get("raw_value").asText());
                }
                if (d.has("contract_identifier")) {
                    ContractId.parse(d.get("contract_identifier").asText());
                }
                if (d.has("asset_identifier")) {
                    String[] parts = d.get("asset_identifier").asText().split("::");
                    assertEquals(2, parts.length);
                    ContractId.parse(parts[0]);
                }
            }
            for (JsonNode tx : line.body().get("transactions")) {
                StacksTransaction decoded = StacksTransaction.decode(Hex.decode(tx.get("raw_tx").asText()));
                StacksAddress sender = decoded.origin().address(TransactionVersion.MAINNET);
                assertEquals(sender, StacksAddress.parse(sender.toString()));
                assertTrue(sender.isMainnet());
            }
        }
    }

    @Test
    void blockAndMicroblockPayloadsAreConsistent() {
        for (Line line : lines) {
            if (!line.path().equals("/new_block") && !line.path().equals("/new_microblocks")) {
                continue;
            }
            JsonNode body = line.body();
            Map<String, String> status = new HashMap<>();
            int index = 0;
            for (JsonNode tx : body.get("transactions")) {
                if (line.path().equals("/new_block")) {
                    assertEquals(index++, tx.get("tx_index").asInt(), "tx_index in block order");
                }
                status.put(tx.get("txid").asText(), tx.get("status").asText());
            }
            int eventIndex = 0;
            for (JsonNode e : body.get("events")) {
                assertEquals(eventIndex++, e.get("event_index").asInt());
                String txStatus = status.get(e.get("txid").asText());
                assertTrue(txStatus != null, "event of a transaction in the payload");
                // A failed transaction's events travel uncommitted, as the node sends them.
                assertEquals(txStatus.equals("success"), e.get("committed").asBoolean());
            }
        }
        for (int i = 1; i < canonical.size(); i++) {
            assertEquals(canonical.get(i - 1).height() + 1, canonical.get(i).height(),
                    "canonical heights are contiguous");
        }
    }

    @Test
    void theSummaryCountsWhatTheCanonicalChainHolds() {
        String hot = summary.hotAddress();
        String hotContract = summary.hotContract();
        long txs = 0;
        long hotTxs = 0;
        long logs = 0;
        long hotLogs = 0;
        for (Block block : canonical) {
            Map<String, Set<String>> parties = new HashMap<>();
            for (JsonNode tx : block.body().get("transactions")) {
                txs++;
                StacksTransaction decoded = StacksTransaction.decode(Hex.decode(tx.get("raw_tx").asText()));
                Set<String> p = new HashSet<>();
                p.add(decoded.origin().address(TransactionVersion.MAINNET).toString());
                decoded.sponsor().ifPresent(s -> p.add(s.address(TransactionVersion.MAINNET).toString()));
                if (decoded.payload() instanceof TransactionPayload.TokenTransfer t) {
                    p.add(t.recipientAddress());
                }
                parties.put(decoded.txId(), p);
            }
            for (JsonNode e : block.body().get("events")) {
                if (!e.get("committed").asBoolean()) {
                    continue;
                }
                JsonNode d = e.get(e.get("type").asText());
                if (e.get("type").asText().equals("contract_event")) {
                    logs++;
                    if (d.get("contract_identifier").asText().equals(hotContract)) {
                        hotLogs++;
                    }
                }
                for (String f : List.of("sender", "recipient", "locked_address")) {
                    if (d.has(f)) {
                        parties.get(e.get("txid").asText()).add(d.get(f).asText());
                    }
                }
            }
            hotTxs += parties.values().stream().filter(p -> p.contains(hot)).count();
        }
        assertEquals(TRANSACTIONS, txs);
        assertEquals(summary.transactions(), txs);
        assertEquals(summary.blocks(), canonical.size() - 1, "block 0 is served as part of block 1");
        assertEquals(summary.tipIndexBlockHash(), canonical.get(canonical.size() - 1).indexBlockHash());
        assertEquals(summary.hotAddressTransactions(), hotTxs);
        assertEquals(summary.contractLogs(), logs);
        assertEquals(summary.hotContractLogs(), hotLogs);
        double hotShare = (double) hotTxs / txs;
        double hotLogShare = (double) hotLogs / logs;
        assertTrue(hotShare > 0.28 && hotShare < 0.40, "hot address in a third of all transactions: " + hotShare);
        assertTrue(hotLogShare > 0.28 && hotLogShare < 0.40, "hot contract a third of all logs: " + hotLogShare);
    }

    @Test
    void blocksAreMostlyFiveToFiftyTransactionsWithSomeLarger() {
        int ordinary = 0;
        int larger = 0;
        for (Block block : canonical) {
            int size = block.body().get("transactions").size();
            if (size >= 5 && size <= 50) {
                ordinary++;
            } else if (size > 50) {
                larger++;
            }
        }
        assertTrue(ordinary > canonical.size() * 0.7, ordinary + " of " + canonical.size());
        assertTrue(larger > 0);
    }

    @Test
    void theChainHasEveryKindOfTransactionEventAndDelivery() {
        Set<String> txTypes = new TreeSet<>();
        Set<String> statuses = new TreeSet<>();
        Set<String> eventTypes = new TreeSet<>();
        Set<String> dropReasons = new TreeSet<>();
        boolean sponsored = false;
        boolean multiSig = false;
        boolean deployWithAbi = false;
        for (Line line : lines) {
            JsonNode body = line.body();
            switch (line.path()) {
                case "/new_block", "/new_microblocks" -> {
                    for (JsonNode tx : body.get("transactions")) {
                        StacksTransaction decoded = StacksTransaction.decode(Hex.decode(tx.get("raw_tx").asText()));
                        txTypes.add(decoded.payload().txType());
                        statuses.add(tx.get("status").asText());
                        sponsored |= decoded.sponsor().isPresent();
                        multiSig |= decoded.origin().hashMode().isMultiSig();
                        deployWithAbi |= tx.get("contract_abi").isObject();
                    }
                    body.get("events").forEach(e -> eventTypes.add(e.get("type").asText()));
                }
                case "/drop_mempool_tx" -> dropReasons.add(body.get("reason").asText());
                default -> {
                }
            }
        }
        assertEquals(new TreeSet<>(List.of("coinbase", "contract_call", "poison_microblock", "smart_contract",
                "tenure_change", "token_transfer")), txTypes);
        assertEquals(new TreeSet<>(List.of("abort_by_post_condition", "abort_by_response", "success")), statuses);
        assertEquals(new TreeSet<>(List.of("contract_event", "ft_burn_event", "ft_mint_event", "ft_transfer_event",
                "nft_burn_event", "nft_mint_event", "nft_transfer_event", "stx_burn_event", "stx_lock_event",
                "stx_mint_event", "stx_transfer_event")), eventTypes);
        assertEquals(new TreeSet<>(List.of("ReplaceByFee", "StaleGarbageCollect")), dropReasons);
        assertTrue(sponsored, "sponsored transactions");
        assertTrue(multiSig, "multi-sig senders");
        assertTrue(deployWithAbi, "deployments carry their ABI");
        assertTrue(summary.reorgs() > 0 && blocks.size() > canonical.size(), "a fork orphaned blocks");
        assertTrue(summary.microblocks() > 0);
    }

    @Test
    void microblockStreamsAreMinedByTheNextBlockAndMinedTransactionsWereAnnouncedBefore() {
        Map<String, Integer> announcedAt = new HashMap<>();
        Map<String, String> streamed = new HashMap<>();
        int confirmed = 0;
        int minedAgain = 0;
        for (int i = 0; i < lines.size(); i++) {
            Line line = lines.get(i);
            JsonNode body = line.body();
            if (line.path().equals("/new_mempool_tx")) {
                for (JsonNode raw : body) {
                    announcedAt.putIfAbsent(Sha512_256.txId(Hex.decode(raw.asText())), i);
                }
            } else if (line.path().equals("/new_microblocks")) {
                String parent = body.get("parent_index_block_hash").asText();
                assertTrue(blocks.containsKey(parent), "a stream on top of a known block");
                for (JsonNode tx : body.get("transactions")) {
                    streamed.put(tx.get("txid").asText(), tx.get("microblock_hash").asText());
                    assertTrue(announcedAt.containsKey(tx.get("txid").asText()));
                }
            } else if (line.path().equals("/new_block")) {
                for (JsonNode tx : body.get("transactions")) {
                    String microblock = streamed.remove(tx.get("txid").asText());
                    if (microblock != null && tx.get("microblock_hash").isNull()) {
                        // Its microblock was forked off: mined again in the anchored block.
                        minedAgain++;
                    } else if (microblock != null) {
                        assertEquals(microblock, tx.get("microblock_hash").asText());
                        assertTrue(tx.get("microblock_sequence").asInt() <= body.get("parent_microblock_sequence")
                                .asInt(), "confirmed up to the block's parent microblock");
                        confirmed++;
                    }
                    Integer at = announcedAt.get(tx.get("txid").asText());
                    assertTrue(at == null || at < i, "announced before it was mined");
                }
                assertEquals(Map.of(), streamed, "the next block mines the whole stream");
            }
        }
        assertTrue(confirmed > 0, "microblock transactions confirmed");
        assertTrue(minedAgain > 0 && summary.orphanedMicroblocks() > 0, "a microblock fork");
        assertTrue(announcedAt.size() > TRANSACTIONS / 2);
    }

    // ------------------------------------------------------------------------------------------

    private static StacksTransaction decodeAndCheck(String rawHex) {
        byte[] raw = Hex.decode(rawHex);
        StacksTransaction tx = StacksTransaction.decode(raw);
        assertEquals(Sha512_256.txId(raw), tx.txId());
        assertArrayEquals(raw, TransactionEncoder.encode(tx), "re-encodes to the same bytes");
        assertFalse(tx.txId().isEmpty());
        return tx;
    }

    private static void principal(String text) {
        if (text.contains(".")) {
            assertTrue(ContractId.parse(text).address().isMainnet(), text);
        } else {
            StacksAddress address = StacksAddress.parse(text);
            assertEquals(text, address.toString());
            assertTrue(address.isMainnet(), text);
        }
    }

    private static String generate(long seed, long transactions) throws IOException {
        StringWriter out = new StringWriter();
        new ChainGenerator(seed, Era.TWO).generate(transactions, out, n -> { });
        return out.toString();
    }

    private static String sha256(String text) {
        try {
            return Hex.encode(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
