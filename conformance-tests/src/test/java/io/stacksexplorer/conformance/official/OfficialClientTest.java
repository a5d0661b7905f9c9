package io.stacksexplorer.conformance.official;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.conformance.provider.states.DemoChainSeed;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The official TypeScript client, {@code @stacks/blockchain-api-client} at the exact version locked
 * in {@code src/test/node/package-lock.json}, calls the real server on the demo chain with its typed
 * method for each of the seven operations. A client nobody here wrote: each call must succeed, the
 * client must have read exactly what the server sent for the same request (every value it kept
 * equals ours), and the data must be the demo chain's.
 *
 * <p>Needs Node.js and npm: skipped when they are absent, except on CI ({@code CI=true}), where
 * {@code .ci/run} installs them and a missing Node is a failure.
 */
class OfficialClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SOURCES = Path.of("src", "test", "node");
    private static final Path WORK = Path.of("target", "official-client");
    private static final String SCRIPT = "official-client-check.mjs";

    @Test
    void officialClientReadsEveryOperation() throws Exception {
        requireNode();
        installClient();

        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("micronaut.server.host", "127.0.0.1");
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props)) {
            DemoChain chain = DemoChainSeed.chain();
            DemoChain.Summary summary = chain.summary();
            DemoChainSeed seed = new DemoChainSeed(server.getApplicationContext().getBean(ChainWriter.class));
            String contract = summary.contractIdWithLogs();
            long logsAt = seed.ensureMined((tx, facts) -> "contract_call".equals(facts.txType())
                    && contract.equals(facts.contractId()) && tx.events().size() > 3).block().height();
            long failedAt = heightOf(chain, summary.failedContractCallTxId());
            NewBlock tip = seed.ensureBlocks(Math.max(40, Math.max(logsAt, failedAt)));
            DemoChainSeed.Pending pending = seed.ensurePending((id, facts) -> true);
            String missingTx = "0x" + "44".repeat(32);
            String address = summary.hotAddresses().get(0);
            String mempoolAddress = pending.facts().senderAddress();
            String missingContract = contract.substring(0, contract.indexOf('.')) + ".no-such-contract";
            String otherNetwork = "ST000000000000000000002AMW42H.pox";

            ObjectNode plan = JSON.createObjectNode();
            plan.put("baseUrl", "http://127.0.0.1:" + server.getPort());
            plan.put("blockHeight", String.valueOf(tip.height() - 5));
            plan.put("blockHash", chain.blocks().get((int) tip.height() - 8).indexBlockHash());
            plan.putArray("txIds").add(summary.failedContractCallTxId()).add(pending.txId()).add(missingTx);
            plan.putArray("contractIds").add(contract).add(missingContract).add(otherNetwork);
            plan.put("contractWithLogs", contract);
            plan.put("address", address);
            plan.put("mempoolAddress", mempoolAddress);
            JsonNode out = runClient(plan);

            String base = plan.get("baseUrl").asText();
            Map<String, String> requests = new java.util.LinkedHashMap<>();
            requests.put("getStatus", "/extended");
            requests.put("getBlock", "/extended/v2/blocks/" + plan.get("blockHeight").asText());
            requests.put("getBlockByHash", "/extended/v2/blocks/" + plan.get("blockHash").asText());
            requests.put("getTxListDetails", "/extended/v1/tx/multiple?tx_id=" + summary.failedContractCallTxId()
                    + "&tx_id=" + pending.txId() + "&tx_id=" + missingTx + "&event_limit=5");
            requests.put("getSmartContractsStatus", "/extended/v2/smart-contracts/status?contract_id=" + contract
                    + "&contract_id=" + missingContract + "&contract_id=" + otherNetwork);
            requests.put("getContractEventsById", "/extended/v1/contract/" + contract + "/events?limit=5&offset=1");
            requests.put("getAddressTransactions", "/extended/v2/addresses/" + address + "/transactions?limit=7&offset=2");
            requests.put("getAddressMempoolTransactions", "/extended/v1/address/" + mempoolAddress + "/mempool?limit=10");

            List<String> failures = new ArrayList<>();
            for (Map.Entry<String, String> request : requests.entrySet()) {
                JsonNode result = out.get(request.getKey());
                if (result == null || !result.path("ok").asBoolean()) {
                    failures.add(request.getKey() + ": " + (result == null ? "not called" : result.get("error").asText()));
                    continue;
                }
                JsonNode ours = get(base + request.getValue());
                List<String> diffs = new ArrayList<>();
                keptValuesEqual(result.get("value"), ours, request.getKey(), diffs);
                failures.addAll(diffs);
            }
            if (!failures.isEmpty()) {
                fail("the official client disagrees with the server:\n" + String.join("\n", failures));
            }

            // The data is the demo chain's.
            assertEquals(tip.indexBlockHash(), out.at("/getStatus/value/chain_tip/index_block_hash").asText());
            assertEquals(tip.height(), out.at("/getStatus/value/chain_tip/block_height").asLong());
            NewBlock byHeight = chain.blocks().get((int) tip.height() - 6);
            assertEquals(byHeight.blockHash(), out.at("/getBlock/value/hash").asText());
            assertEquals(byHeight.transactions().size(), out.at("/getBlock/value/tx_count").asInt());
            assertEquals(plan.get("blockHash").asText(), out.at("/getBlockByHash/value/index_block_hash").asText());
            JsonNode lookup = out.at("/getTxListDetails/value");
            assertEquals("abort_by_response",
                    lookup.at("/" + summary.failedContractCallTxId() + "/result/tx_status").asText());
            assertEquals("pending", lookup.at("/" + pending.txId() + "/result/tx_status").asText());
            assertFalse(lookup.at("/" + missingTx + "/found").asBoolean(true));
            JsonNode status = out.at("/getSmartContractsStatus/value");
            assertEquals("success", status.at("/" + contract + "/result/status").asText());
            assertFalse(status.at("/" + missingContract + "/found").asBoolean(true));
            assertFalse(status.at("/" + otherNetwork + "/found").asBoolean(true));
            JsonNode events = out.at("/getContractEventsById/value/results");
            assertEquals(5, events.size());
            events.forEach(e -> assertEquals(contract, e.at("/contract_log/contract_id").asText()));
            JsonNode history = out.at("/getAddressTransactions/value");
            assertEquals(7, history.get("results").size());
            assertTrue(history.get("total").asInt() > 9);
            JsonNode mempool = out.at("/getAddressMempoolTransactions/value/results");
            assertFalse(mempool.isEmpty());
            mempool.forEach(tx -> assertEquals("pending", tx.get("tx_status").asText()));
        }
    }

    /** Height of the block mining {@code txId} in the demo chain. */
    private static long heightOf(DemoChain chain, String txId) {
        for (NewBlock block : chain.blocks()) {
            if (block.transactions().stream().anyMatch(tx -> tx.txId().equals(txId))) {
                return block.height();
            }
        }
        throw new IllegalStateException(txId + " is not mined in the demo chain");
    }

    /**
     * The client keeps the properties its models know (and may leave out ones it does not): every
     * value it kept must be ours, and nothing it kept may be missing from ours.
     */
    private static void keptValuesEqual(JsonNode client, JsonNode ours, String path, List<String> diffs) {
        if (ours == null || ours.isMissingNode()) {
            diffs.add(path + ": the client has " + abbreviate(client) + ", the server sent nothing");
        } else if (client.isObject()) {
            if (!ours.isObject()) {
                diffs.add(path + ": client object, server " + abbreviate(ours));
                return;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = client.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                keptValuesEqual(field.getValue(), ours.get(field.getKey()), path + "/" + field.getKey(), diffs);
            }
        } else if (client.isArray()) {
            if (!ours.isArray() || ours.size() != client.size()) {
                diffs.add(path + ": client array of " + client.size() + ", server " + abbreviate(ours));
                return;
            }
            for (int i = 0; i < client.size(); i++) {
                keptValuesEqual(client.get(i), ours.get(i), path + "/" + i, diffs);
            }
        } else if (client.isNumber() && ours.isNumber()
                ? client.decimalValue().compareTo(ours.decimalValue()) != 0 : !client.equals(ours)) {
            diffs.add(path + ": client " + abbreviate(client) + ", server " + abbreviate(ours));
        }
    }

    private static String abbreviate(JsonNode node) {
        String s = String.valueOf(node);
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }

    private static JsonNode get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), url + " " + response.body());
        return JSON.readTree(response.body());
    }

    static void requireNode() {
        boolean present = run(List.of("node", "--version"), Path.of("."), 30).exit() == 0
                && run(List.of("npm", "--version"), Path.of("."), 60).exit() == 0;
        if (!present) {
            if ("true".equals(System.getenv("CI"))) {
                fail("Node.js and npm are required on CI (.ci/run installs them)");
            }
            Assumptions.abort("Node.js or npm not installed: the official TypeScript client is not checked");
        }
    }

    /** npm ci of the locked client into target/official-client, once per lock file. */
    static void installClient() throws IOException {
        Files.createDirectories(WORK);
        for (String file : List.of("package.json", "package-lock.json", SCRIPT)) {
            Files.copy(SOURCES.resolve(file), WORK.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        Path stamp = WORK.resolve("node_modules").resolve(".installed-lock");
        String lock = Files.readString(WORK.resolve("package-lock.json"));
        if (Files.exists(stamp) && Files.readString(stamp).equals(lock)) {
            return;
        }
        Result npm = run(List.of("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"), WORK, 600);
        assertEquals(0, npm.exit(), "npm ci failed:\n" + npm.output());
        Files.writeString(stamp, lock);
    }

    private static JsonNode runClient(JsonNode plan) throws IOException {
        Path planFile = WORK.resolve("plan.json");
        JSON.writeValue(planFile.toFile(), plan);
        Result node = run(List.of("node", SCRIPT, "plan.json"), WORK, 120);
        assertEquals(0, node.exit(), "node " + SCRIPT + " failed:\n" + node.output());
        return JSON.readTree(node.output());
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command, Path dir, long timeoutSeconds) {
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, "timed out after " + timeoutSeconds + " s");
            }
            return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, e.toString());
        }
    }
}
