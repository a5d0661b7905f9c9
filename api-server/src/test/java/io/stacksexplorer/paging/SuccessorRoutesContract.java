package io.stacksexplorer.paging;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The peer's cursor-paged successor routes over HTTP on the demo chain: a walk by cursor (principal
 * transactions by {@code cursor.next}, contract logs by {@code prev_cursor}) lists exactly the
 * records the offset-paged seed routes list, in the same order, with no gap or repeat while a new
 * block lands before every page; a page's backward cursor names the page before as it was; the
 * mempool walk follows the v3 order; every malformed input is a 400 problem (never a 500); answers
 * carry ETags, revalidate to 304 and are readable from any origin.
 */
public abstract class SuccessorRoutesContract {

    protected abstract TestDatabase database();

    private static final DemoChain DEMO = DemoChain.generate(DemoChain.DEFAULT_SEED);
    private static final String HOT = DEMO.summary().hotAddresses().get(0);
    private static final String CONTRACT = DEMO.summary().contractIdWithLogs();

    @Test
    void cursorWalksNeitherSkipNorRepeatWhileBlocksArrive() {
        List<NewBlock> blocks = DEMO.blocks();
        int start = blocks.size() / 2;
        try (ApiServer api = ApiServer.start(database())) {
            for (NewBlock block : blocks.subList(0, start)) {
                api.writer().writeBlock(block);
            }
            List<String> history = allIds(api, "/extended/v2/addresses/" + HOT + "/transactions", 50, r -> r.at("/tx/tx_id"));
            List<String> logs = allIds(api, "/extended/v1/contract/" + CONTRACT + "/events", 50,
                    r -> r.get("tx_id").asText() + "#" + r.get("event_index").asText());
            assertTrue(history.size() > 5 * 20 && logs.size() > 5 * 20, "several pages of each");

            int next = start;
            String txPath = "/extended/v3/principals/" + HOT + "/transactions?limit=20";
            List<String> walked = new ArrayList<>();
            List<JsonNode> pages = new ArrayList<>();
            JsonNode page = api.get(txPath).body();
            while (true) {
                pages.add(page);
                page.get("results").forEach(r -> walked.add(r.at("/transaction/tx_id").asText()));
                if (page.at("/cursor/next").isNull()) {
                    break;
                }
                if (next < blocks.size()) {
                    api.writer().writeBlock(blocks.get(next++)); // a new block before every page
                }
                page = api.get(txPath + "&cursor=" + page.at("/cursor/next").asText()).body();
            }
            assertEquals(history, walked, "the walk lists the history as it was, without gap or repeat");
            assertEquals(walked.size(), new HashSet<>(walked).size());
            // Each page's previous names the page before, as it was; its current, itself.
            for (int i = 1; i < pages.size(); i++) {
                assertEquals(pages.get(i - 1).at("/cursor/current").asText(), pages.get(i).at("/cursor/previous").asText());
                assertEquals(ids(pages.get(i), r -> r.at("/transaction/tx_id")), ids(api.get(txPath + "&cursor="
                        + pages.get(i).at("/cursor/current").asText()).body(), r -> r.at("/transaction/tx_id")));
            }

            // The log walk starts on the newest page as it is now, after the blocks of the history walk.
            List<String> logsNow = allIds(api, "/extended/v1/contract/" + CONTRACT + "/events", 50,
                    r -> r.get("tx_id").asText() + "#" + r.get("event_index").asText());
            assertEquals(logs, logsNow.subList(logsNow.size() - logs.size(), logsNow.size()), "new events are on top");
            String logPath = "/extended/v2/smart-contracts/" + CONTRACT + "/logs?limit=20";
            List<String> walkedLogs = new ArrayList<>();
            page = api.get(logPath).body();
            JsonNode first = page;
            assertTrue(page.get("next_cursor").isNull(), "nothing newer than the newest page");
            while (true) {
                page.get("results").forEach(r -> walkedLogs.add(r.get("tx_id").asText() + "#" + r.get("event_index").asText()));
                if (page.get("prev_cursor").isNull()) {
                    break;
                }
                if (next < blocks.size()) {
                    api.writer().writeBlock(blocks.get(next++));
                }
                JsonNode older = api.get(logPath + "&cursor=" + page.get("prev_cursor").asText()).body();
                assertEquals(page.get("cursor").asText(), older.get("next_cursor").asText(),
                        "next_cursor leads back to the newer page");
                page = older;
            }
            assertTrue(next > start + 5, "blocks arrived during the walks");
            assertEquals(logsNow, walkedLogs, "the walk lists the events as they were, without gap or repeat");
            assertEquals(walkedLogs.size(), new HashSet<>(walkedLogs).size());
            assertNotNull(first.get("cursor").asText());
        }
    }

    @Test
    void mempoolWalkFollowsReceiptTimeThenTxIdDescending() {
        try (ApiServer api = ApiServer.start(database())) {
            DEMO.blocks().forEach(api.writer()::writeBlock);
            api.writer().addMempoolTransactions(DEMO.mempool());
            Map<String, Integer> bySender = new HashMap<>();
            for (NewMempoolTransaction tx : DEMO.mempool()) {
                JsonNode found = api.get("/extended/v1/tx/multiple?tx_id=" + tx.txId()).body().at("/" + tx.txId() + "/result");
                bySender.merge(found.get("sender_address").asText(), 1, Integer::sum);
            }
            String principal = bySender.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            List<JsonNode> pending = new ArrayList<>();
            api.get("/extended/v1/address/" + principal + "/mempool?limit=50").body().get("results").forEach(pending::add);
            pending.sort(Comparator.comparing((JsonNode r) -> r.get("receipt_time").asLong())
                    .thenComparing(r -> r.get("tx_id").asText()).reversed());
            List<String> expected = pending.stream().map(r -> r.get("tx_id").asText()).toList();
            assertTrue(expected.size() >= 2, principal + " has pending transactions to walk");

            String path = "/extended/v3/principals/" + principal + "/mempool/transactions?limit=1";
            List<String> walked = new ArrayList<>();
            JsonNode page = api.get(path).body();
            while (true) {
                assertEquals(expected.size(), page.get("total").asInt());
                page.get("results").forEach(r -> walked.add(r.get("tx_id").asText()));
                if (page.at("/cursor/next").isNull()) {
                    break;
                }
                String cursor = page.at("/cursor/next").asText();
                // The peer's cursor text, also without 0x and in capitals.
                String spelled = walked.size() % 2 == 0 ? cursor : cursor.replace(":0x", ":").toUpperCase();
                page = api.get(path + "&cursor=" + spelled).body();
            }
            assertEquals(expected, walked);
        }
    }

    @Test
    void badInputIsA400ProblemNeverA500() {
        try (ApiServer api = ApiServer.start(database())) {
            DEMO.blocks().subList(0, 30).forEach(api.writer()::writeBlock);
            String tx = "/extended/v3/principals/" + HOT + "/transactions";
            String mempool = "/extended/v3/principals/" + HOT + "/mempool/transactions";
            String logs = "/extended/v2/smart-contracts/" + CONTRACT + "/logs";
            Map<String, String> bad = new java.util.LinkedHashMap<>();
            bad.put("/extended/v3/principals/not-a-principal/transactions", "principal");
            bad.put("/extended/v3/principals/" + HOT.toLowerCase() + "/transactions", "principal");
            bad.put("/extended/v3/principals/" + HOT.substring(0, HOT.length() - 1)
                    + (HOT.endsWith("A") ? "B" : "A") + "/transactions", "principal");
            bad.put(tx + "?limit=0", "limit");
            bad.put(tx + "?limit=51", "limit");
            bad.put(tx + "?limit=abc", "limit");
            bad.put(tx + "?cursor=garbage", "cursor");
            bad.put(tx + "?cursor=0x" + "ab".repeat(32) + ":0:0", "cursor");
            bad.put(tx + "?cursor=1:99999999999:0", "cursor");
            bad.put(tx + "?cursor=9999999999999999999:0:0", "cursor");
            bad.put(mempool + "?cursor=garbage", "cursor");
            bad.put(mempool + "?cursor=1:0x1234", "cursor");
            bad.put(mempool + "?limit=51", "limit");
            bad.put("/extended/v3/principals/SP1/mempool/transactions", "principal");
            bad.put(logs + "?limit=101", "limit");
            bad.put(logs + "?limit=-1", "limit");
            bad.put(logs + "?offset=-20", "offset");
            bad.put(logs + "?offset=1001", "offset");
            bad.put(logs + "?cursor=garbage", "cursor");
            bad.put(logs + "?cursor=1:2:3:99999999999", "cursor");
            bad.put("/extended/v2/smart-contracts/not-a-contract/logs", "contract_id");
            bad.forEach((request, parameter) -> {
                ApiServer.Answer answer = api.get(request);
                assertEquals(400, answer.status(), request + " " + answer.rawBody());
                assertTrue(answer.contentType().startsWith("application/problem+json"), request);
                assertEquals(parameter, answer.body().path("parameter").asText(), request + " " + answer.rawBody());
            });
            ApiServer.Answer below = api.get(logs + "?cursor=0:0:0:0");
            assertEquals(404, below.status(), below.rawBody());
            assertTrue(below.contentType().startsWith("application/problem+json"));
            assertEquals(200, api.get(tx + "?offset=20").status(), "offset is not a parameter here: ignored, as at the peer");
            assertEquals(20, api.get(logs + "?limit=0").body().get("limit").asInt(), "limit=0 means the default");
        }
    }

    @Test
    void answersCarryETagsRevalidateAndAreReadableFromAnyOrigin() {
        try (ApiServer api = ApiServer.start(database())) {
            DEMO.blocks().subList(0, 30).forEach(api.writer()::writeBlock);
            for (String request : List.of("/extended/v3/principals/" + HOT + "/transactions",
                    "/extended/v3/principals/" + HOT + "/mempool/transactions",
                    "/extended/v2/smart-contracts/" + CONTRACT + "/logs?limit=3")) {
                ApiServer.Answer answer = api.get(request, Map.of("Origin", "https://wallet.example"));
                assertEquals(200, answer.status(), request);
                String etag = answer.headers().firstValue("ETag").orElseThrow();
                String allowed = answer.headers().firstValue("Access-Control-Allow-Origin").orElse("");
                assertTrue(allowed.equals("*") || allowed.equals("https://wallet.example"), request + ": " + allowed);
                assertEquals(304, api.get(request, Map.of("If-None-Match", etag)).status(), request);
            }
        }
    }

    @Test
    void excludeFunctionArgsLeavesContractCallsWithoutArguments() {
        try (ApiServer api = ApiServer.start(database())) {
            DEMO.blocks().subList(0, 60).forEach(api.writer()::writeBlock);
            String path = "/extended/v2/addresses/" + HOT + "/transactions?limit=50";
            JsonNode full = api.get(path).body();
            JsonNode slim = api.get(path + "&exclude_function_args=true").body();
            int calls = 0;
            for (int i = 0; i < full.get("results").size(); i++) {
                JsonNode call = full.get("results").get(i).at("/tx/contract_call");
                JsonNode slimCall = slim.get("results").get(i).at("/tx/contract_call");
                if (call.isObject() && !call.path("function_args").isEmpty()) {
                    calls++;
                    assertTrue(slimCall.path("function_args").isMissingNode(), slimCall.toString());
                    assertEquals(call.get("function_signature"), slimCall.get("function_signature"));
                }
            }
            assertTrue(calls > 0, "the page holds contract calls with arguments");
            // The shared payload is not changed for the next answer.
            assertEquals(full, api.get(path + "&exclude_function_args=false").body());
        }
    }

    private static List<String> allIds(ApiServer api, String path, int limit, Function<JsonNode, Object> id) {
        List<String> all = new ArrayList<>();
        for (int offset = 0; ; offset += limit) {
            List<String> page = ids(api.get(path + "?limit=" + limit + "&offset=" + offset).body(), id);
            if (page.isEmpty()) {
                return all;
            }
            all.addAll(page);
        }
    }

    private static List<String> ids(JsonNode page, Function<JsonNode, Object> id) {
        List<String> ids = new ArrayList<>();
        for (JsonNode row : page.get("results")) {
            Object value = id.apply(row);
            ids.add(value instanceof JsonNode node ? node.asText() : value.toString());
        }
        return ids;
    }
}
