package io.stacksexplorer.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * All seven endpoints over HTTP against the demo chain written through the write path, on one
 * database (subclasses pick H2 or PostgreSQL). Expected values are computed from the generated
 * chain itself ({@link DemoChainExpectations}); every answer is also validated against the spec
 * by {@link ApiServer}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ApiEndpointsContract {

    static final DemoChain CHAIN = DemoChain.generate(DemoChain.DEFAULT_SEED);
    static final DemoChainExpectations EXPECT = new DemoChainExpectations(CHAIN);
    static final DemoChain.Summary SUMMARY = CHAIN.summary();

    ApiServer api;

    abstract TestDatabase database();

    @BeforeAll
    void loadDemoChain() {
        api = ApiServer.start(database());
        for (NewBlock block : CHAIN.blocks()) {
            api.writer().writeBlock(block);
        }
        api.writer().addMempoolTransactions(CHAIN.mempool());
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    static String hot() {
        return SUMMARY.hotAddresses().get(0);
    }

    // --- status ---------------------------------------------------------------------------------

    @Test
    void statusReportsTheTip() {
        JsonNode body = api.get("/extended").body();
        assertEquals("ready", body.get("status").asText());
        assertEquals(SUMMARY.tipHeight(), body.at("/chain_tip/block_height").asLong());
        assertEquals(SUMMARY.tipBlockHash(), body.at("/chain_tip/block_hash").asText());
        assertTrue(body.get("pox_v1_unlock_height").isNull(), "present and null until the node reports it");
    }

    // --- blocks -----------------------------------------------------------------------------------

    @Test
    void blockByHeightHashIndexHashAndLatestAreTheSameBlock() {
        NewBlock block = CHAIN.blocks().get(149);
        JsonNode byHeight = api.get("/extended/v2/blocks/" + block.height()).body();
        assertBlock(block, byHeight);
        assertEquals(byHeight, api.get("/extended/v2/blocks/" + block.blockHash()).body());
        assertEquals(byHeight, api.get("/extended/v2/blocks/" + block.indexBlockHash()).body());
        assertEquals(byHeight, api.get("/extended/v2/blocks/" + block.blockHash().substring(2).toUpperCase()).body());
        assertEquals(byHeight, api.get("/extended/v2/blocks/0X" + block.indexBlockHash().substring(2)).body());
        assertBlock(CHAIN.blocks().get(CHAIN.blocks().size() - 1), api.get("/extended/v2/blocks/latest").body());
    }

    static void assertBlock(NewBlock expected, JsonNode actual) {
        assertEquals(expected.height(), actual.get("height").asLong());
        assertEquals(expected.blockHash(), actual.get("hash").asText());
        assertEquals(expected.indexBlockHash(), actual.get("index_block_hash").asText());
        assertEquals(expected.parentBlockHash(), actual.get("parent_block_hash").asText());
        assertEquals(expected.parentIndexBlockHash(), actual.get("parent_index_block_hash").asText());
        assertEquals(expected.burnBlockHeight(), actual.get("burn_block_height").asLong());
        assertEquals(expected.blockTime(), actual.get("block_time").asLong());
        assertEquals(java.time.Instant.ofEpochSecond(expected.blockTime()).toString().replace("Z", ".000Z"),
                actual.get("block_time_iso").asText());
        assertEquals(expected.transactions().size(), actual.get("tx_count").asInt());
        ExecutionCost total = expected.transactions().stream().map(NewTransaction::cost)
                .reduce(ExecutionCost.ZERO, ExecutionCost::plus);
        assertEquals(total.runtime(), actual.get("execution_cost_runtime").asLong());
        assertEquals(total.readCount(), actual.get("execution_cost_read_count").asLong());
        assertEquals(total.readLength(), actual.get("execution_cost_read_length").asLong());
        assertEquals(total.writeCount(), actual.get("execution_cost_write_count").asLong());
        assertEquals(total.writeLength(), actual.get("execution_cost_write_length").asLong());
        assertTrue(actual.get("canonical").asBoolean());
    }

    @Test
    void unknownBlocksAre404() {
        assertProblem(api.get("/extended/v2/blocks/" + (SUMMARY.tipHeight() + 1)), 404, null);
        assertProblem(api.get("/extended/v2/blocks/0x" + "ab".repeat(32)), 404, null);
        assertProblem(api.get("/extended/v2/blocks/0"), 404, null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "-1", "1.5", "0x1234", "latestx", "0xgg00000000000000000000000000000000000000000000000000000000000000",
            "1234567890123456789012"})
    void malformedBlockIdsAre400(String id) {
        assertProblem(api.get("/extended/v2/blocks/" + id), 400, "height_or_hash");
    }

    // --- transactions -------------------------------------------------------------------------------

    @Test
    void lookupServesConfirmedPendingAndMissesInRequestOrder() {
        String confirmed = SUMMARY.exampleTxIdByType().get("contract_call");
        String pending = SUMMARY.pendingTxId();
        String missing = "0x" + "33".repeat(32);
        JsonNode body = api.get("/extended/v1/tx/multiple?tx_id=" + missing + "&tx_id=" + confirmed.substring(2).toUpperCase()
                + "&tx_id=" + pending + "&tx_id=" + confirmed).body();
        assertEquals(List.of(missing, confirmed, pending), fieldNames(body), "normalised keys, duplicates once, request order");
        assertEquals(1, body.get(missing).size(), "a miss is exactly {\"found\": false}");
        assertFalse(body.get(missing).get("found").asBoolean());

        JsonNode tx = body.get(confirmed).get("result");
        DemoChainExpectations.Mined mined = EXPECT.minedById.get(confirmed);
        assertEquals(mined.block().height(), tx.get("block_height").asLong());
        assertEquals(mined.block().blockHash(), tx.get("block_hash").asText());
        assertEquals(mined.tx().txIndex(), tx.get("tx_index").asInt());
        assertEquals(mined.tx().events().size(), tx.get("event_count").asInt());
        assertEquals(Math.min(20, mined.tx().events().size()), tx.get("events").size());
        assertEquals(mined.decoded().fee().toString(), tx.get("fee_rate").asText());
        assertEquals("contract_call", tx.get("tx_type").asText());
        assertTrue(tx.has("contract_call") && !tx.has("receipt_time"));

        JsonNode mempoolTx = body.get(pending).get("result");
        assertEquals("pending", mempoolTx.get("tx_status").asText());
        assertTrue(mempoolTx.has("receipt_time") && !mempoolTx.has("block_height"));
    }

    @Test
    void lookupPagesEventsOfEachTransaction() {
        DemoChainExpectations.Mined rich = EXPECT.mined.stream().filter(m -> m.tx().events().size() >= 3)
                .findFirst().orElseThrow();
        String id = rich.tx().txId();
        JsonNode events = api.get("/extended/v1/tx/multiple?tx_id=" + id + "&event_limit=1&event_offset=1").body()
                .at("/" + id + "/result/events");
        assertEquals(1, events.size());
        assertEquals(1, events.get(0).get("event_index").asInt());
        assertEquals(rich.tx().events().get(1).eventType(), events.get(0).get("event_type").asText());
    }

    @Test
    void lookupOfSponsoredAndMicroblockTransactions() {
        JsonNode sponsored = api.get("/extended/v1/tx/multiple?tx_id=" + SUMMARY.sponsoredTxId()).body()
                .at("/" + SUMMARY.sponsoredTxId() + "/result");
        assertTrue(sponsored.get("sponsored").asBoolean());
        assertTrue(sponsored.has("sponsor_address") && sponsored.has("sponsor_nonce"));
        JsonNode micro = api.get("/extended/v1/tx/multiple?tx_id=" + SUMMARY.microblockTxId()).body()
                .at("/" + SUMMARY.microblockTxId() + "/result");
        DemoChainExpectations.Mined mined = EXPECT.minedById.get(SUMMARY.microblockTxId());
        assertEquals(mined.tx().microblockHash(), micro.get("microblock_hash").asText());
        assertEquals(mined.tx().microblockSequence(), micro.get("microblock_sequence").asInt());
        assertTrue(micro.get("microblock_canonical").asBoolean());
    }

    @Test
    void failedTransactionsCarryTheirStatusAndNoEvents() {
        JsonNode tx = api.get("/extended/v1/tx/multiple?tx_id=" + SUMMARY.failedContractCallTxId()).body()
                .at("/" + SUMMARY.failedContractCallTxId() + "/result");
        assertEquals("abort_by_response", tx.get("tx_status").asText());
        assertTrue(tx.at("/tx_result/repr").asText().startsWith("(err "));
        assertEquals(0, tx.get("event_count").asInt());
    }

    /** A mint has {@code "sender": ""} and a burn {@code "recipient": ""}, for FT, NFT and STX, as at the peer. */
    @Test
    void mintsAndBurnsCarryBothParties() {
        java.util.Map<String, String> wanted = new java.util.LinkedHashMap<>();
        for (NewBlock block : CHAIN.blocks()) {
            for (NewTransaction tx : block.transactions()) {
                if (tx.status() != io.stacksexplorer.write.TxOutcome.SUCCESS || tx.events().size() > 50) {
                    continue;
                }
                for (io.stacksexplorer.write.NewEvent e : tx.events()) {
                    String kind = e instanceof io.stacksexplorer.write.NewEvent.StxAsset a ? "stx " + a.action()
                            : e instanceof io.stacksexplorer.write.NewEvent.FungibleAsset a ? "ft " + a.action()
                            : e instanceof io.stacksexplorer.write.NewEvent.NonFungibleAsset a ? "nft " + a.action() : null;
                    if (kind != null && !kind.endsWith("TRANSFER")) {
                        wanted.putIfAbsent(kind, tx.txId());
                    }
                }
            }
        }
        // The demo chain has no STX mint (no genesis block): NodeEventsIngestContract checks one on mainnet-block0.
        assertEquals(java.util.Set.of("ft MINT", "nft MINT", "stx BURN", "ft BURN", "nft BURN"), wanted.keySet());
        int checked = 0;
        for (String txId : new java.util.LinkedHashSet<>(wanted.values())) {
            JsonNode events = api.get("/extended/v1/tx/multiple?event_limit=50&tx_id=" + txId).body()
                    .at("/" + txId + "/result/events");
            for (JsonNode e : events) {
                JsonNode asset = e.get("asset");
                if (asset == null) {
                    continue;
                }
                String action = asset.get("asset_event_type").asText();
                assertTrue(asset.has("sender") && asset.has("recipient"), asset.toString());
                if (action.equals("mint")) {
                    assertEquals("", asset.get("sender").asText(), asset.toString());
                    assertTrue(asset.get("recipient").asText().startsWith("S"), asset.toString());
                    checked++;
                } else if (action.equals("burn")) {
                    assertEquals("", asset.get("recipient").asText(), asset.toString());
                    assertTrue(asset.get("sender").asText().startsWith("S"), asset.toString());
                    checked++;
                }
            }
        }
        assertTrue(checked >= 5, "mint and burn events checked: " + checked);
    }

    @Test
    void commaSeparatedIdsAreSeveralIds() {
        String a = SUMMARY.failedContractCallTxId();
        String b = SUMMARY.pendingTxId();
        String c = "0x" + "44".repeat(32);
        JsonNode repeated = api.get("/extended/v1/tx/multiple?tx_id=" + a + "&tx_id=" + b + "&tx_id=" + c).body();
        assertEquals(List.of(a, b, c), fieldNames(repeated));
        assertEquals(repeated, api.get("/extended/v1/tx/multiple?tx_id=" + a + "," + b + "," + c).body());
        assertEquals(repeated, api.get("/extended/v1/tx/multiple?tx_id=" + a + "%2C" + b + "&tx_id=" + c).body());
        assertEquals(repeated, api.get("/extended/v1/tx/multiple?tx_id=" + a + "," + b.substring(2).toUpperCase()
                + "&tx_id=" + c + "," + a).body());
        String fifty = IntStream.range(0, 49).mapToObj(i -> "0x" + String.format("%064x", i))
                .collect(Collectors.joining(","));
        assertEquals(200, api.get("/extended/v1/tx/multiple?tx_id=" + fifty + "&tx_id=" + a).status());
        assertProblem(api.get("/extended/v1/tx/multiple?tx_id=" + fifty + "," + b + "&tx_id=" + a), 400, "tx_id");
        assertProblem(api.get("/extended/v1/tx/multiple?tx_id=" + a + ","), 400, "tx_id");
        assertProblem(api.get("/extended/v1/tx/multiple?tx_id=" + a + ",0x1234"), 400, "tx_id");
    }

    @Test
    void lookupErrors() {
        assertProblem(api.get("/extended/v1/tx/multiple?tx_id=0x" + "44".repeat(32)), 404, null);
        assertProblem(api.get("/extended/v1/tx/multiple"), 400, "tx_id");
        assertProblem(api.get("/extended/v1/tx/multiple?tx_id=0x1234"), 400, "tx_id");
        String tooMany = IntStream.range(0, 51).mapToObj(i -> "tx_id=0x" + String.format("%064x", i))
                .collect(Collectors.joining("&"));
        assertProblem(api.get("/extended/v1/tx/multiple?" + tooMany), 400, "tx_id");
        assertEquals(200, api.get("/extended/v1/tx/multiple?tx_id=" + SUMMARY.pendingTxId() + "&event_limit=100").status(),
                "the peer's limit, which its official client may send");
        assertProblem(api.get("/extended/v1/tx/multiple?tx_id=" + SUMMARY.pendingTxId() + "&event_limit=101"), 400,
                "event_limit");
        assertProblem(api.get("/extended/v1/tx/multiple?tx_id=" + SUMMARY.pendingTxId() + "&event_offset=-1"), 400,
                "event_offset");
    }

    // --- contract status ------------------------------------------------------------------------------

    @Test
    void contractStatusFoundAbortedPendingAndMissing() {
        String ok = SUMMARY.contractIdWithLogs();
        String aborted = SUMMARY.failedDeploymentContractId();
        String pending = CHAIN.mempool().stream().map(p -> StacksTransaction.decodeHex(p.rawTx()))
                .filter(t -> t.payload() instanceof TransactionPayload.SmartContract)
                .map(t -> t.smartContractId().orElseThrow().toString()).findFirst().orElseThrow();
        String missing = ok.substring(0, ok.indexOf('.')) + ".no-such-contract";
        JsonNode body = api.get("/extended/v2/smart-contracts/status?contract_id=" + ok + "&contract_id=" + aborted
                + "&contract_id=" + pending + "&contract_id=" + missing).body();
        assertEquals(List.of(ok, aborted, pending, missing), fieldNames(body));
        assertEquals("success", body.at("/" + ok + "/result/status").asText());
        assertTrue(body.at("/" + ok + "/result/block_height").isNumber());
        String abortedStatus = EXPECT.mined.stream().filter(m -> m.decoded().smartContractId()
                .map(id -> id.toString().equals(aborted)).orElse(false)).reduce((first, last) -> last)
                .orElseThrow().tx().status().apiName();
        assertEquals(abortedStatus, body.at("/" + aborted + "/result/status").asText());
        assertEquals("pending", body.at("/" + pending + "/result/status").asText());
        assertFalse(body.at("/" + pending + "/result").has("block_height"));
        assertEquals(1, body.get(missing).size());
        assertFalse(body.at("/" + missing + "/found").asBoolean());
    }

    @Test
    void contractStatusErrors() {
        assertProblem(api.get("/extended/v2/smart-contracts/status"), 400, "contract_id");
        assertProblem(api.get("/extended/v2/smart-contracts/status?contract_id=" + hot()), 400, "contract_id");
        assertProblem(api.get("/extended/v2/smart-contracts/status?contract_id=" + corrupt(hot()) + ".x"), 400,
                "contract_id");
        String tooMany = IntStream.range(0, 51).mapToObj(i -> "contract_id=" + hot() + ".c" + i)
                .collect(Collectors.joining("&"));
        assertProblem(api.get("/extended/v2/smart-contracts/status?" + tooMany), 400, "contract_id");
    }

    // --- contract events ------------------------------------------------------------------------------

    @Test
    void contractEventsNewestFirstWithTrueTotal() {
        String contract = SUMMARY.contractIdWithLogs();
        List<String> expected = EXPECT.logsOf(contract);
        JsonNode first = api.get("/extended/v1/contract/" + contract + "/events").body();
        assertEquals(expected.size(), first.get("total").asLong());
        assertEquals(20, first.get("limit").asInt());
        assertEquals(0, first.get("offset").asInt());
        assertEquals(expected.subList(0, 20), logKeys(first));
        JsonNode last = api.get("/extended/v1/contract/" + contract + "/events?limit=50&offset=" + (expected.size() - 7)).body();
        assertEquals(expected.subList(expected.size() - 7, expected.size()), logKeys(last));
        JsonNode past = api.get("/extended/v1/contract/" + contract + "/events?offset=" + (expected.size() + 10)).body();
        assertEquals(0, past.get("results").size());
        assertEquals(expected.size(), past.get("total").asLong());
        first.get("results").forEach(e -> {
            assertEquals("smart_contract_log", e.get("event_type").asText());
            assertEquals(contract, e.at("/contract_log/contract_id").asText());
        });
    }

    @Test
    void contractEventsOfAnUnknownContractAreAnEmptyPage() {
        JsonNode body = api.get("/extended/v1/contract/" + hot() + ".nothing-here/events").body();
        assertEquals(0, body.get("total").asLong());
        assertEquals(0, body.get("results").size());
    }

    @Test
    void contractEventsErrors() {
        String base = "/extended/v1/contract/" + SUMMARY.contractIdWithLogs() + "/events";
        assertProblem(api.get(base + "?limit=51"), 400, "limit");
        assertProblem(api.get(base + "?limit=0"), 400, "limit");
        assertProblem(api.get(base + "?limit=abc"), 400, "limit");
        assertProblem(api.get(base + "?offset=-1"), 400, "offset");
        assertProblem(api.get(base + "?offset=1.5"), 400, "offset");
        assertProblem(api.get("/extended/v1/contract/" + hot() + "/events"), 400, "contract_id");
        assertProblem(api.get("/extended/v1/contract/" + corrupt(hot()) + ".demo/events"), 400, "contract_id");
    }

    // --- address transactions ---------------------------------------------------------------------------

    @Test
    void addressHistoryNewestFirstWithTotalsAndCounts() {
        String address = hot();
        List<DemoChainExpectations.Mined> expected = EXPECT.historyOf(address);
        assertEquals(SUMMARY.hotAddressTxCounts().get(address).longValue(), expected.size());
        JsonNode page = api.get("/extended/v2/addresses/" + address + "/transactions?limit=50&offset=100").body();
        assertEquals(expected.size(), page.get("total").asLong());
        assertEquals(50, page.get("limit").asInt());
        assertEquals(100, page.get("offset").asInt());
        List<String> ids = new ArrayList<>();
        page.get("results").forEach(r -> ids.add(r.at("/tx/tx_id").asText()));
        assertEquals(expected.subList(100, 150).stream().map(m -> m.tx().txId()).toList(), ids);
        for (JsonNode record : page.get("results")) {
            DemoChainExpectations.Mined m = EXPECT.minedById.get(record.at("/tx/tx_id").asText());
            assertEquals(DemoChainExpectations.stxSent(m, address).toString(), record.get("stx_sent").asText());
            assertEquals(DemoChainExpectations.stxReceived(m, address).toString(), record.get("stx_received").asText());
            assertEquals(0, record.at("/tx/events").size(), "history transactions list no events");
            assertEquals(m.tx().events().size(), record.at("/tx/event_count").asInt());
        }
    }

    @Test
    void addressHistoryPagingEdges() {
        String address = hot();
        long total = SUMMARY.hotAddressTxCounts().get(address);
        assertEquals(20, api.get("/extended/v2/addresses/" + address + "/transactions").body().get("results").size());
        assertEquals(50, api.get("/extended/v2/addresses/" + address + "/transactions?limit=50").body().get("results").size());
        JsonNode past = api.get("/extended/v2/addresses/" + address + "/transactions?offset=" + total).body();
        assertEquals(0, past.get("results").size());
        assertEquals(total, past.get("total").asLong());
        assertProblem(api.get("/extended/v2/addresses/" + address + "/transactions?limit=51"), 400, "limit");
        assertProblem(api.get("/extended/v2/addresses/" + address + "/transactions?offset=x"), 400, "offset");
    }

    @Test
    void contractPrincipalsHaveHistoriesToo() {
        String contract = SUMMARY.contractIdWithLogs();
        JsonNode page = api.get("/extended/v2/addresses/" + contract + "/transactions").body();
        assertEquals(EXPECT.historyOf(contract).size(), page.get("total").asLong());
    }

    @Test
    void emptyAndInvalidAddresses() {
        String unused = "SP000000000000000000002Q6VF78";
        JsonNode empty = api.get("/extended/v2/addresses/" + unused + "/transactions").body();
        assertEquals(0, empty.get("total").asLong());
        assertProblem(api.get("/extended/v2/addresses/" + corrupt(hot()) + "/transactions"), 400, "address");
        assertProblem(api.get("/extended/v2/addresses/not-an-address/transactions"), 400, "address");
        assertProblem(api.get("/extended/v1/address/" + corrupt(hot()) + "/mempool"), 400, "address");
        // A valid checksum but a version that is no network's address (0, not 22/20/26/21).
        String versionZero = new io.stacksexplorer.codec.address.StacksAddress(0, new byte[20]).toString();
        assertProblem(api.get("/extended/v2/addresses/" + versionZero + "/transactions"), 400, "address");
        assertProblem(api.get("/extended/v1/address/" + versionZero + ".c/mempool"), 400, "address");
        assertProblem(api.get("/extended/v2/smart-contracts/status?contract_id=" + versionZero + ".c"), 400,
                "contract_id");
    }

    /** Addresses and contracts of the other network (the demo chain is mainnet): valid, and empty. */
    @Test
    void addressesOfTheOtherNetworkAreEmptyNotErrors() {
        String testnet = "ST000000000000000000002AMW42H";
        String multisig = "SN2ZNMJ2HAXFFR6Q8VJYE9DJFPZGFRKX6Q1XN415E";
        for (String principal : List.of(testnet, testnet + ".pox", multisig)) {
            JsonNode history = api.get("/extended/v2/addresses/" + principal + "/transactions").body();
            assertEquals(0, history.get("total").asLong(), principal);
            assertEquals(0, history.get("results").size(), principal);
            JsonNode mempool = api.get("/extended/v1/address/" + principal + "/mempool").body();
            assertEquals(0, mempool.get("total").asLong(), principal);
        }
        assertEquals(0, api.get("/extended/v1/contract/" + testnet + ".pox/events").body().get("results").size());
        JsonNode status = api.get("/extended/v2/smart-contracts/status?contract_id=" + testnet + ".pox&contract_id="
                + SUMMARY.contractIdWithLogs()).body();
        assertFalse(status.at("/" + testnet + ".pox/found").asBoolean());
        assertTrue(status.at("/" + SUMMARY.contractIdWithLogs() + "/found").asBoolean());
        assertProblem(api.get("/extended/v2/addresses/" + corrupt(testnet) + "/transactions"), 400, "address");
    }

    // --- address mempool ------------------------------------------------------------------------------

    @Test
    void addressMempoolNewestFirst() {
        String address = hot();
        List<NewMempoolTransaction> expected = new ArrayList<>(EXPECT.pendingFor(address));
        assertFalse(expected.isEmpty());
        expected.sort(Comparator.comparingLong(NewMempoolTransaction::receiptTime).reversed()
                .thenComparing(p -> StacksTransaction.decodeHex(p.rawTx()).txId()));
        JsonNode page = api.get("/extended/v1/address/" + address + "/mempool?unanchored=true").body();
        assertEquals(expected.size(), page.get("total").asLong());
        List<String> ids = new ArrayList<>();
        page.get("results").forEach(r -> {
            ids.add(r.get("tx_id").asText());
            assertEquals("pending", r.get("tx_status").asText());
        });
        assertEquals(expected.stream().map(p -> StacksTransaction.decodeHex(p.rawTx()).txId()).toList(), ids);
        assertProblem(api.get("/extended/v1/address/" + address + "/mempool?limit=51"), 400, "limit");
    }

    @Test
    void unanchoredAcceptsBooleansAndThePeersSpellingsOnly() {
        String base = "/extended/v1/contract/" + SUMMARY.contractIdWithLogs() + "/events?limit=1&unanchored";
        for (String ok : List.of("", "=true", "=false", "=1", "=0", "=TRUE")) {
            assertEquals(200, api.get(base + ok).status(), "unanchored" + ok);
        }
        assertProblem(api.get(base + "=maybe"), 400, "unanchored");
        assertProblem(api.get("/extended/v1/address/" + hot() + "/mempool?unanchored=yes"), 400, "unanchored");
    }

    // --- caching --------------------------------------------------------------------------------------

    @Test
    void conditionalGetsAnswer304WhileTheAnswerIsUnchanged() {
        java.util.Set<String> tags = new java.util.HashSet<>();
        for (String path : List.of("/extended", "/extended/v2/blocks/latest",
                "/extended/v1/tx/multiple?tx_id=" + SUMMARY.pendingTxId(),
                "/extended/v2/addresses/" + hot() + "/transactions?limit=5")) {
            ApiServer.Answer first = api.get(path);
            String etag = first.headers().firstValue("ETag").orElseThrow(() -> new AssertionError(path + ": no ETag"));
            assertTrue(etag.matches("\"[0-9a-f]{32}\""), etag);
            assertEquals("public, no-cache, must-revalidate", first.headers().firstValue("Cache-Control").orElse(""));
            assertEquals(etag, api.get(path).headers().firstValue("ETag").orElse(""), "stable for the same answer");

            ApiServer.Answer notModified = api.get(path, java.util.Map.of("If-None-Match", etag));
            assertEquals(304, notModified.status(), path);
            assertTrue(notModified.rawBody().isEmpty());
            assertEquals(etag, notModified.headers().firstValue("ETag").orElse(""));
            assertEquals(304, api.get(path, java.util.Map.of("If-None-Match", "\"other\", W/" + etag)).status());
            assertEquals(200, api.get(path, java.util.Map.of("If-None-Match", "\"other\"")).status());
            assertTrue(tags.add(etag), "another answer, another tag: " + path);
        }
        // The tag follows the body: pages that differ in one field only carry different tags.
        assertNotEquals(api.get("/extended/v2/addresses/" + hot() + "/transactions?limit=5").headers().firstValue("ETag"),
                api.get("/extended/v2/addresses/" + hot() + "/transactions?limit=6").headers().firstValue("ETag"));
        assertFalse(api.get("/extended/v2/blocks/abc").headers().firstValue("ETag").isPresent(), "errors are not tagged");
    }

    // --- HTTP: HEAD, content codings, a tag per representation ---------------------------------------

    /** A successful request of every operation in the spec (the status at both of its paths). */
    static List<String> everyOperation() {
        String contract = SUMMARY.contractIdWithLogs();
        return List.of("/extended", "/extended/v1/status", "/extended/v2/blocks/150",
                "/extended/v1/tx/multiple?tx_id=" + SUMMARY.failedContractCallTxId() + "&tx_id=" + SUMMARY.pendingTxId(),
                "/extended/v2/smart-contracts/status?contract_id=" + contract,
                "/extended/v1/contract/" + contract + "/events?limit=5",
                "/extended/v2/addresses/" + hot() + "/transactions?limit=50",
                "/extended/v1/address/" + hot() + "/mempool");
    }

    @Test
    void headAnswersWhatGetAnswersWithoutTheBody() {
        List<String> paths = new ArrayList<>(everyOperation());
        paths.add("/extended/v2/blocks/999999");
        paths.add("/extended/v2/addresses/" + hot() + "/transactions?limit=51");
        paths.add("/extended/v1/address/" + hot() + "/mempool?unanchored=maybe");
        for (String path : paths) {
            for (Map<String, String> request : List.of(Map.<String, String>of(), Map.of("Accept-Encoding", "gzip"))) {
                RawHttp.Response get = api.raw("GET", path, request);
                RawHttp.Response head = api.raw("HEAD", path, request);
                String what = "HEAD " + path + " " + request + "\n GET:  " + get + "\n HEAD: " + head;
                assertEquals(get.status(), head.status(), what);
                assertEquals(sorted(get.headerLines("date")), sorted(head.headerLines("date")), what);
                assertEquals(String.valueOf(get.body().length), head.header("Content-Length"), what);
                assertTrue(head.header("Content-Type").startsWith(get.status() == 200 ? "application/json"
                        : "application/problem+json"), what);
            }
        }
        RawHttp.Response plain = api.raw("HEAD", "/extended", Map.of());
        for (String header : List.of("ETag", "Cache-Control", "Vary")) {
            assertTrue(plain.header(header) != null, "HEAD /extended has no " + header + ": " + plain);
        }
    }

    @Test
    void answersOfOneKibibyteOrMoreAreGzippedForClientsThatAcceptIt() {
        String page = "/extended/v2/addresses/" + hot() + "/transactions?limit=50";
        RawHttp.Response identity = api.raw("GET", page, Map.of());
        RawHttp.Response gzip = api.raw("GET", page, Map.of("Accept-Encoding", "gzip, deflate, br"));
        assertNull(identity.header("Content-Encoding"));
        assertEquals("gzip", gzip.header("Content-Encoding"));
        assertTrue(gzip.body().length * 5 < identity.body().length, gzip.body().length + " vs " + identity.body().length);
        assertArrayEquals(identity.body(), gzip.decoded());
        for (RawHttp.Response answer : List.of(identity, gzip)) {
            assertEquals(List.of("Accept-Encoding"), answer.headers("Vary"), answer.toString());
        }
        // Below the threshold nothing is compressed; the answer still names what it could vary by.
        RawHttp.Response status = api.raw("GET", "/extended", Map.of("Accept-Encoding", "gzip"));
        assertTrue(status.body().length < 1024 && status.header("Content-Encoding") == null, status.toString());
        assertEquals(List.of("Accept-Encoding"), status.headers("Vary"));
        assertEquals(List.of("Accept-Encoding"), api.raw("GET", "/extended/v2/blocks/999999", Map.of()).headers("Vary"));
        // A client accepting only codings the API does not produce itself gets the uncompressed answer
        // under its tag: Netty's compressor leaves tagged answers alone (it sent deflate and snappy before).
        for (String other : List.of("deflate", "snappy", "br", "gzip;q=0, *", "identity")) {
            RawHttp.Response answer = api.raw("GET", page, Map.of("Accept-Encoding", other));
            assertNull(answer.header("Content-Encoding"), other);
            assertEquals(identity.header("ETag"), answer.header("ETag"), other);
            assertArrayEquals(identity.body(), answer.body(), other);
        }
        assertEquals("gzip", api.raw("GET", page, Map.of("Accept-Encoding", "*")).header("Content-Encoding"));
    }

    @Test
    void eachCodingIsRevalidatedWithItsOwnTag() {
        String page = "/extended/v2/addresses/" + hot() + "/transactions?limit=50";
        Map<String, String> gzip = Map.of("Accept-Encoding", "gzip");
        String plainTag = api.raw("GET", page, Map.of()).header("ETag");
        String gzipTag = api.raw("GET", page, gzip).header("ETag");
        assertTrue(plainTag.matches("\"[0-9a-f]{32}\""), plainTag);
        assertEquals(plainTag.substring(0, 33) + "-gzip\"", gzipTag);

        for (String method : List.of("GET", "HEAD")) {
            RawHttp.Response plain = api.raw(method, page, Map.of("If-None-Match", plainTag));
            assertEquals(304, plain.status(), method + " " + plain);
            assertEquals(plainTag, plain.header("ETag"));
            assertEquals("Accept-Encoding", plain.header("Vary"));
            assertEquals("public, no-cache, must-revalidate", plain.header("Cache-Control"));
            assertEquals(0, plain.body().length);
            RawHttp.Response zipped = api.raw(method, page, Map.of("Accept-Encoding", "gzip", "If-None-Match",
                    "\"other\", W/" + gzipTag));
            assertEquals(304, zipped.status(), method + " " + zipped);
            assertEquals(gzipTag, zipped.header("ETag"));
        }
        // A tag never matches the other coding's representation.
        assertEquals(200, api.raw("GET", page, Map.of("If-None-Match", gzipTag)).status());
        RawHttp.Response cross = api.raw("GET", page, Map.of("Accept-Encoding", "gzip", "If-None-Match", plainTag));
        assertEquals(200, cross.status());
        assertEquals(gzipTag, cross.header("ETag"));
        assertEquals("gzip", cross.header("Content-Encoding"));
    }

    @Test
    void theStatusIsAlsoServedAtTheV1Path() {
        ApiServer.Answer status = api.get("/extended");
        ApiServer.Answer v1 = api.get("/extended/v1/status");
        assertEquals(200, v1.status());
        assertEquals(status.rawBody(), v1.rawBody());
        assertEquals(status.headers().firstValue("ETag"), v1.headers().firstValue("ETag"));
        assertEquals(304, api.get("/extended/v1/status", Map.of("If-None-Match",
                status.headers().firstValue("ETag").orElseThrow())).status());
    }

    private static List<String> sorted(List<String> lines) {
        return lines.stream().sorted().toList();
    }

    // --- helpers --------------------------------------------------------------------------------------

    static void assertProblem(ApiServer.Answer answer, int status, String parameter) {
        assertEquals(status, answer.status(), answer.rawBody());
        assertTrue(answer.contentType().startsWith("application/problem+json"), answer.contentType());
        assertEquals(status, answer.body().get("status").asInt());
        assertTrue(answer.body().hasNonNull("title") && answer.body().hasNonNull("detail"), answer.rawBody());
        assertFalse(answer.rawBody().contains("Exception") || answer.rawBody().contains("\tat "), "no stack traces");
        if (parameter == null) {
            assertNull(answer.body().get("parameter"));
        } else {
            assertEquals(parameter, answer.body().path("parameter").asText(), answer.rawBody());
        }
    }

    /** The same address with its last character changed: the c32check checksum no longer matches. */
    static String corrupt(String address) {
        char last = address.charAt(address.length() - 1);
        return address.substring(0, address.length() - 1) + (last == 'A' ? 'B' : 'A');
    }

    static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    static List<String> logKeys(JsonNode page) {
        List<String> keys = new ArrayList<>();
        page.get("results").forEach(e -> keys.add(e.get("tx_id").asText() + "#" + e.get("event_index").asInt()));
        return keys;
    }

    @Nested
    class EmptyDatabase {
        @Test
        void statusHasNoChainTipBeforeTheFirstBlock() {
            try (ApiServer empty = ApiServer.start(database())) {
                JsonNode body = empty.get("/extended").body();
                assertFalse(body.has("chain_tip"));
                assertTrue(body.has("pox_v1_unlock_height"));
                assertProblem(empty.get("/extended/v2/blocks/latest"), 404, null);
            }
        }
    }
}
