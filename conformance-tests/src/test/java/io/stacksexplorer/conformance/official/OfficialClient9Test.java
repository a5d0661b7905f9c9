package io.stacksexplorer.conformance.official;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.conformance.official.ChainFacts.Log;
import io.stacksexplorer.conformance.official.ChainFacts.Mined;
import io.stacksexplorer.conformance.provider.states.DemoChainSeed;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.PrincipalActivity;
import io.stacksexplorer.write.TxOutcome;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.stacksexplorer.conformance.official.OfficialClient9.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hiro's current official client, {@code @stacks/blockchain-api-client} 9.0.2 unchanged, calls the
 * real server on the whole demo chain ({@code createClient}, then {@code client.GET} with each
 * route's path as the client's schema spells it): every operation of the seven seed routes, and
 * of the three routes the peer now prefers for the same data. Each exchange must conform to
 * spec/openapi.yaml (the request the client sent and the answer it got), the client must have
 * read exactly what the server sends for that URL, and the answer must say what the chain says:
 * totals, the entries of the page and their order, per-transaction totals, statuses, computed
 * from the generator's blocks ({@link ChainFacts}), not from the server.
 *
 * <p>Needs Node.js and npm, as {@link OfficialClientTest}: skipped without them, except on CI.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OfficialClient9Test {

    static final String V3_TRANSACTIONS = "/extended/v3/principals/{principal}/transactions";
    static final String V3_MEMPOOL = "/extended/v3/principals/{principal}/mempool/transactions";
    static final String V2_LOGS = "/extended/v2/smart-contracts/{contract_id}/logs";

    private final DemoChain chain = DemoChainSeed.chain();
    private final ChainFacts facts = new ChainFacts(chain.blocks(), chain.mempool());
    private final String address = chain.summary().hotAddresses().get(0);
    private final String contract = chain.summary().contractIdWithLogs();
    private final String mempoolPrincipal = facts.busiestPendingPrincipal();
    private final NewBlock tip = chain.blocks().get(chain.blocks().size() - 1);
    private String base;
    private EmbeddedServer server;

    @BeforeAll
    void serveTheDemoChain() throws IOException {
        OfficialClient9.install();
        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("micronaut.server.host", "127.0.0.1");
        server = ApplicationContext.run(EmbeddedServer.class, props);
        DemoChainSeed seed = new DemoChainSeed(server.getApplicationContext().getBean(ChainWriter.class));
        seed.ensureBlocks(chain.blocks().size());
        seed.ensureMempool();
        base = "http://127.0.0.1:" + server.getPort();
    }

    @org.junit.jupiter.api.AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void sevenSeedRoutes() throws Exception {
        String failedCall = chain.summary().failedContractCallTxId();
        String pending = chain.mempool().get(0).id();
        String missingTx = "0x" + "44".repeat(32);
        String failedDeployment = chain.summary().failedDeploymentContractId();
        String missingContract = contract.substring(0, contract.indexOf('.')) + ".no-such-contract";
        NewBlock byHeight = chain.blocks().get(chain.blocks().size() - 6);
        NewBlock byHash = chain.blocks().get(chain.blocks().size() / 2);
        Calls calls = new Calls();
        calls.add("status", "/extended", p -> { });
        calls.add("blockByHeight", "/extended/v2/blocks/{height_or_hash}",
                p -> p.putObject("path").put("height_or_hash", String.valueOf(byHeight.height())));
        calls.add("blockByHash", "/extended/v2/blocks/{height_or_hash}",
                p -> p.putObject("path").put("height_or_hash", byHash.indexBlockHash()));
        calls.add("blockLatest", "/extended/v2/blocks/{height_or_hash}",
                p -> p.putObject("path").put("height_or_hash", "latest"));
        calls.add("txMultiple", "/extended/v1/tx/multiple", p -> {
            ObjectNode q = p.putObject("query").put("event_limit", 5).put("event_offset", 1);
            q.putArray("tx_id").add(failedCall).add(pending).add(missingTx);
        });
        // The peer allows up to 100 events per transaction; so does the spec since 1.5.
        Mined busiest = facts.mostEvents();
        calls.add("txEventLimit100", "/extended/v1/tx/multiple", p -> p.putObject("query").put("event_limit", 100)
                .putArray("tx_id").add(busiest.txId()));
        calls.add("contractStatus", "/extended/v2/smart-contracts/status", p -> p.putObject("query")
                .putArray("contract_id").add(contract).add(failedDeployment).add(missingContract));
        calls.add("contractEvents", "/extended/v1/contract/{contract_id}/events", p -> {
            p.putObject("path").put("contract_id", contract);
            p.putObject("query").put("limit", 5).put("offset", 1);
        });
        calls.add("addressTransactions", "/extended/v2/addresses/{address}/transactions", p -> {
            p.putObject("path").put("address", address);
            p.putObject("query").put("limit", 7).put("offset", 2);
        });
        calls.add("addressMempool", "/extended/v1/address/{principal}/mempool", p -> {
            p.putObject("path").put("principal", mempoolPrincipal);
            p.putObject("query").put("limit", 10);
        });
        // A mistyped address (last character): the problem answer reaches the client as `error`.
        String mistyped = address.substring(0, address.length() - 1) + (address.endsWith("A") ? "B" : "A");
        calls.add("badAddress", "/extended/v2/addresses/{address}/transactions",
                p -> p.putObject("path").put("address", mistyped));
        JsonNode out = calls.run();

        assertEquals(tip.indexBlockHash(), out.at("/status/body/chain_tip/index_block_hash").asText());
        assertEquals(tip.height(), out.at("/status/body/chain_tip/block_height").asLong());
        assertBlock(byHeight, out.at("/blockByHeight/body"));
        assertBlock(byHash, out.at("/blockByHash/body"));
        assertBlock(tip, out.at("/blockLatest/body"));

        JsonNode lookup = out.at("/txMultiple/body");
        assertEquals(List.of(failedCall, pending, missingTx), fieldNames(lookup), "one entry per id, in request order");
        Mined failed = facts.find(failedCall).orElseThrow();
        JsonNode failedTx = lookup.at("/" + failedCall + "/result");
        assertEquals(TxOutcome.ABORT_BY_RESPONSE.apiName(), failedTx.get("tx_status").asText());
        assertEquals(failed.height(), failedTx.get("block_height").asLong());
        int eventCount = failed.tx().events().size();
        assertEquals(eventCount, failedTx.get("event_count").asInt());
        List<Integer> expectedEvents = new ArrayList<>();
        for (int i = 1; i < Math.min(eventCount, 6); i++) {
            expectedEvents.add(i);
        }
        List<Integer> servedEvents = new ArrayList<>();
        failedTx.get("events").forEach(e -> servedEvents.add(e.get("event_index").asInt()));
        assertEquals(expectedEvents, servedEvents, "event_offset 1, event_limit 5");
        JsonNode busiestTx = out.at("/txEventLimit100/body/" + busiest.txId() + "/result");
        assertEquals(busiest.tx().events().size(), busiestTx.get("event_count").asInt());
        assertEquals(Math.min(100, busiest.tx().events().size()), busiestTx.get("events").size(), busiest.txId());
        assertTrue(busiest.tx().events().size() > 20, "a transaction with more events than the default page");
        assertTrue(facts.isPending(pending));
        assertEquals("pending", lookup.at("/" + pending + "/result/tx_status").asText());
        assertFalse(lookup.at("/" + missingTx + "/found").asBoolean(true));

        JsonNode status = out.at("/contractStatus/body");
        assertDeployment(contract, status.get(contract));
        assertDeployment(failedDeployment, status.get(failedDeployment));
        assertFalse(status.at("/" + missingContract + "/found").asBoolean(true));

        List<Log> logs = facts.contractLogs(contract);
        JsonNode events = out.at("/contractEvents/body");
        assertEquals(logs.size(), events.get("total").asInt(), "the contract's log events");
        assertLogs(logs.subList(1, 6), events.get("results"));

        List<Mined> history = facts.history(address);
        JsonNode page = out.at("/addressTransactions/body");
        assertEquals(history.size(), page.get("total").asInt(), "the address's transactions");
        assertEquals(7, page.get("results").size());
        for (int i = 0; i < 7; i++) {
            JsonNode record = page.get("results").get(i);
            Mined expected = history.get(2 + i);
            assertEquals(expected.txId(), record.at("/tx/tx_id").asText(), "record " + (2 + i));
            assertEquals(expected.height(), record.at("/tx/block_height").asLong());
            PrincipalActivity a = ChainFacts.activity(expected, address).orElseThrow();
            assertEquals(a.stxSent().toString(), record.get("stx_sent").asText(), expected.txId());
            assertEquals(a.stxReceived().toString(), record.get("stx_received").asText(), expected.txId());
            assertEquals(List.of(a.stxTransfer(), a.stxMint(), a.stxBurn(), a.ftTransfer(), a.ftMint(), a.ftBurn(),
                    a.nftTransfer(), a.nftMint(), a.nftBurn()), counts(record.get("events")), expected.txId());
        }

        List<NewMempoolTransaction> pendingOf = facts.pendingOf(mempoolPrincipal, false);
        JsonNode mempool = out.at("/addressMempool/body");
        assertEquals(pendingOf.size(), mempool.get("total").asInt(), mempoolPrincipal + "'s pending transactions");
        assertEquals(ids(pendingOf.subList(0, Math.min(10, pendingOf.size()))), txIds(mempool.get("results"), "/tx_id"));

        assertEquals(400, out.at("/badAddress/status").asInt());
        assertEquals("address", out.at("/badAddress/body/parameter").asText());
    }

    @Test
    void principalTransactionsV3() throws Exception {
        requireRoute(V3_TRANSACTIONS);
        JsonNode out = new Calls().add("page", V3_TRANSACTIONS, p -> {
            p.putObject("path").put("principal", address);
            p.putObject("query").put("limit", 7);
        }).run();
        List<Mined> history = facts.history(address);
        JsonNode page = out.at("/page/body");
        assertEquals(history.size(), page.get("total").asInt(), "the principal's transactions");
        assertEquals(7, page.get("results").size());
        for (int i = 0; i < 7; i++) {
            JsonNode result = page.get("results").get(i);
            Mined expected = history.get(i);
            assertEquals(expected.txId(), result.at("/transaction/tx_id").asText(), "result " + i);
            assertEquals(expected.height(), result.at("/transaction/block/height").asLong());
            String involvement = address.equals(expected.facts().senderAddress()) ? "sender"
                    : address.equals(expected.facts().sponsorAddress()) ? "sponsor" : "affected";
            assertEquals(involvement, result.get("involvement").asText(), expected.txId());
            PrincipalActivity a = ChainFacts.activity(expected, address).orElseThrow();
            assertEquals(a.stxSent().toString(), result.at("/balance_changes/stx/sent").asText(), expected.txId());
            assertEquals(a.stxReceived().toString(), result.at("/balance_changes/stx/received").asText());
            assertEquals(a.stxReceived().subtract(a.stxSent()).toString(), result.at("/balance_changes/stx/net").asText());
        }
        assertTrue(page.at("/cursor/previous").isNull(), "the first page has nothing newer");
        assertFalse(page.at("/cursor/next").isNull(), "older transactions follow");
    }

    @Test
    void principalMempoolV3() throws Exception {
        requireRoute(V3_MEMPOOL);
        List<NewMempoolTransaction> pendingOf = facts.pendingOf(mempoolPrincipal, true);
        assertTrue(pendingOf.size() > 3, "a principal with several pending transactions");
        // Three at a time, by cursor.next (the mempool does not change meanwhile): every pending
        // transaction once, in the peer's order.
        List<String> walked = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            String at = cursor;
            JsonNode page = new Calls().add("page", V3_MEMPOOL, p -> {
                p.putObject("path").put("principal", mempoolPrincipal);
                ObjectNode query = p.putObject("query").put("limit", 3);
                if (at != null) {
                    query.put("cursor", at);
                }
            }).run().at("/page/body");
            assertEquals(pendingOf.size(), page.get("total").asInt(), mempoolPrincipal + "'s pending transactions");
            assertEquals(pages == 0, page.at("/cursor/previous").isNull(), "only the first page has nothing newer");
            page.get("results").forEach(tx -> assertEquals("pending", tx.get("status").asText()));
            walked.addAll(txIds(page.get("results"), "/tx_id"));
            cursor = page.at("/cursor/next").isNull() ? null : page.at("/cursor/next").asText();
            pages++;
        } while (cursor != null && pages <= pendingOf.size());
        assertEquals(ids(pendingOf), walked);
    }

    @Test
    void contractLogsV2() throws Exception {
        requireRoute(V2_LOGS);
        JsonNode out = new Calls().add("page", V2_LOGS, p -> {
            p.putObject("path").put("contract_id", contract);
            p.putObject("query").put("limit", 5);
        }).run();
        List<Log> logs = facts.contractLogs(contract);
        JsonNode page = out.at("/page/body");
        assertEquals(logs.size(), page.get("total").asInt(), "the contract's log events");
        assertLogs(logs.subList(0, 5), page.get("results"));
        assertTrue(page.get("next_cursor").isNull(), "the first page has nothing newer");
        assertFalse(page.get("prev_cursor").isNull(), "older log events follow");
    }

    /** A successor route is tested once spec/openapi.yaml declares it (issue 49, point 1). */
    static void requireRoute(String path) {
        Assumptions.assumeTrue(OfficialClient9.specHasPath(path),
                "spec/openapi.yaml does not declare " + path + " yet (issue 49 point 1, branch routes)");
    }

    /** Calls through the client, checked against the spec and against the server's own answer. */
    private final class Calls {
        private final ArrayNode list = JSON.createArrayNode();

        Calls add(String name, String path, Consumer<ObjectNode> params) {
            ObjectNode call = list.addObject().put("name", name).put("path", path);
            params.accept(call.putObject("params"));
            return this;
        }

        JsonNode run() throws Exception {
            ObjectNode plan = JSON.createObjectNode().put("baseUrl", base);
            plan.set("calls", list);
            JsonNode out = OfficialClient9.run("official-client9-check.mjs", plan);
            List<String> failures = new ArrayList<>();
            for (JsonNode call : list) {
                String name = call.get("name").asText();
                JsonNode answer = out.get(name);
                if (answer == null || !answer.get("ok").asBoolean()) {
                    failures.add(name + ": " + (answer == null ? "not called" : answer.get("error").asText()));
                    continue;
                }
                failures.addAll(OfficialClient9.specErrors(name, answer));
                HttpResponse<String> direct = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create(answer.get("url").asText())).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (direct.statusCode() != answer.get("status").asInt()
                        || !JSON.readTree(direct.body()).equals(answer.get("body"))) {
                    failures.add(name + ": the client read " + answer.get("status") + " " + abbreviate(answer.get("body"))
                            + ", the server sends " + direct.statusCode() + " " + abbreviate(direct.body()));
                }
            }
            if (!failures.isEmpty()) {
                fail("the 9.0.2 client's exchanges:\n" + String.join("\n", failures));
            }
            return out;
        }
    }

    private static void assertBlock(NewBlock expected, JsonNode served) {
        assertEquals(expected.height(), served.get("height").asLong());
        assertEquals(expected.blockHash(), served.get("hash").asText());
        assertEquals(expected.indexBlockHash(), served.get("index_block_hash").asText());
        assertEquals(expected.transactions().size(), served.get("tx_count").asInt(), "block " + expected.height());
    }

    private void assertDeployment(String contractId, JsonNode served) {
        Mined deploy = facts.lastDeployment(contractId).orElseThrow();
        assertTrue(served.get("found").asBoolean(), contractId);
        assertEquals(deploy.tx().status().apiName(), served.at("/result/status").asText(), contractId);
        assertEquals(deploy.txId(), served.at("/result/tx_id").asText(), contractId);
        assertEquals(deploy.height(), served.at("/result/block_height").asLong(), contractId);
    }

    /** The served log events are {@code expected}, in order, with their index and value. */
    static void assertLogs(List<Log> expected, JsonNode served) {
        assertEquals(expected.size(), served.size());
        for (int i = 0; i < expected.size(); i++) {
            Log log = expected.get(i);
            JsonNode event = served.get(i);
            String where = "log " + i + " (" + log.mined().txId() + " #" + log.eventIndex() + ")";
            assertEquals(log.mined().txId(), event.get("tx_id").asText(), where);
            assertEquals(log.eventIndex(), event.get("event_index").asInt(), where);
            assertEquals(hex(log.event().valueHex()), event.at("/contract_log/value/hex").asText(), where);
            assertEquals(log.event().topic(), event.at("/contract_log/topic").asText(), where);
        }
    }

    static String hex(String value) {
        String lower = value.toLowerCase();
        return lower.startsWith("0x") ? lower : "0x" + lower;
    }

    private static List<Integer> counts(JsonNode events) {
        List<Integer> counts = new ArrayList<>();
        for (String kind : List.of("stx", "ft", "nft")) {
            for (String action : List.of("transfer", "mint", "burn")) {
                counts.add(events.path(kind).path(action).asInt(-1));
            }
        }
        return counts;
    }

    private static List<String> ids(List<NewMempoolTransaction> txs) {
        return txs.stream().map(NewMempoolTransaction::id).toList();
    }

    static List<String> txIds(JsonNode results, String pointer) {
        List<String> ids = new ArrayList<>();
        results.forEach(r -> ids.add(r.at(pointer).asText()));
        return ids;
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String abbreviate(Object value) {
        String s = String.valueOf(value);
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }
}
