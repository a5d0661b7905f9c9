package io.stacksexplorer.codec.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.clarity.ClarityValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Checks our decoding against what the peer API answered for the same recorded chain
 * ({@code shared/data/peer-answers}): every {@code hex}/{@code repr} pair, and every transaction field
 * the codec derives. Skipped when the shared data is absent.
 */
class PeerAnswersCrossCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> rawById = new HashMap<>();
    private final List<String> failures = new ArrayList<>();
    private int reprsChecked;
    private int transactionsChecked;

    @Test
    void matchesThePeersRenderingOfRecordedData() throws IOException {
        Optional<Path> events = NodeEventsReplayTest.eventsFolder();
        Assumptions.assumeTrue(events.isPresent(), "no shared data beside the project");
        Path answers = events.get().resolveSibling("peer-answers");
        Assumptions.assumeTrue(Files.isDirectory(answers), "no peer answers");
        indexRawTransactions(events.get());

        List<Path> files;
        try (Stream<Path> walk = Files.walk(answers)) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        for (Path file : files) {
            walk(JSON.readTree(file.toFile()).path("body"), answers.relativize(file).toString());
        }
        System.out.printf("peer answers: %d files, %d repr values and %d transactions matched%n",
                files.size(), reprsChecked, transactionsChecked);
        if (!failures.isEmpty()) {
            fail(failures.size() + " differences from the peer:\n" + String.join("\n", failures));
        }
        assertTrue(reprsChecked > 0 && transactionsChecked > 0, "nothing was compared");
    }

    private void indexRawTransactions(Path events) throws IOException {
        try (Stream<Path> listing = Files.list(events)) {
            for (Path file : listing.filter(p -> p.toString().endsWith(".tsv")).toList()) {
                for (String line : Files.readAllLines(file)) {
                    JsonNode body = JSON.readTree(line.split("\t", 4)[3]);
                    for (JsonNode tx : body.path("transactions")) {
                        rawById.put(tx.path("txid").asText(), tx.path("raw_tx").asText());
                    }
                }
            }
        }
    }

    private void walk(JsonNode node, String where) {
        if (node.isObject()) {
            if (node.has("hex") && node.has("repr")) {
                compare(where + " repr of " + node.get("hex").asText(), node.get("repr").asText(),
                        ClarityValue.decodeHex(node.get("hex").asText()).repr());
                reprsChecked++;
            }
            if (node.has("tx_id") && node.has("tx_type") && rawById.containsKey(node.get("tx_id").asText())) {
                checkTransaction(node, where + " " + node.get("tx_id").asText());
            }
            node.fields().forEachRemaining(field -> walk(field.getValue(), where));
        } else if (node.isArray()) {
            node.forEach(item -> walk(item, where));
        }
    }

    private void checkTransaction(JsonNode peer, String where) {
        StacksTransaction tx = StacksTransaction.decodeHex(rawById.get(peer.get("tx_id").asText()));
        transactionsChecked++;
        compare(where + " tx_type", peer.get("tx_type").asText(), tx.payload().txType());
        compare(where + " sender_address", peer.get("sender_address").asText(), tx.senderAddress().toString());
        compare(where + " nonce", peer.get("nonce").asText(), tx.nonce().toString());
        compare(where + " fee_rate", peer.get("fee_rate").asText(), tx.fee().toString());
        compare(where + " sponsored", peer.get("sponsored").asBoolean(), tx.isSponsored());
        if (peer.has("sponsor_address")) {
            compare(where + " sponsor_address", peer.get("sponsor_address").asText(),
                    tx.sponsorAddress().map(Object::toString).orElse(null));
        }
        compare(where + " anchor_mode", peer.get("anchor_mode").asText(), tx.anchorMode().apiName());
        compare(where + " post_condition_mode", peer.get("post_condition_mode").asText(),
                tx.postConditionMode().apiName());
        compare(where + " post_conditions", peer.get("post_conditions").size(), tx.postConditions().size());

        TransactionPayload payload = tx.payload();
        if (payload instanceof TransactionPayload.TokenTransfer transfer) {
            JsonNode p = peer.get("token_transfer");
            compare(where + " recipient_address", p.get("recipient_address").asText(), transfer.recipientAddress());
            compare(where + " amount", p.get("amount").asText(), transfer.amount().toString());
            compare(where + " memo", p.get("memo").asText(), transfer.memo());
        } else if (payload instanceof TransactionPayload.SmartContract deploy) {
            JsonNode p = peer.get("smart_contract");
            compare(where + " contract_id", p.get("contract_id").asText(), tx.smartContractId().orElseThrow().toString());
            compare(where + " source_code", p.get("source_code").asText(), deploy.sourceCode());
            compare(where + " clarity_version", p.get("clarity_version").isNull() ? null : p.get("clarity_version").asInt(),
                    deploy.clarityVersion().isPresent() ? deploy.clarityVersion().getAsInt() : null);
        } else if (payload instanceof TransactionPayload.ContractCall call) {
            JsonNode p = peer.get("contract_call");
            compare(where + " contract_id", p.get("contract_id").asText(), call.contract().toString());
            compare(where + " function_name", p.get("function_name").asText(), call.functionName());
            JsonNode args = p.get("function_args");
            compare(where + " function_args", args.size(), call.functionArgs().size());
            for (int i = 0; i < Math.min(args.size(), call.functionArgs().size()); i++) {
                ClarityValue arg = call.functionArgs().get(i);
                compare(where + " arg " + i + " hex", args.get(i).get("hex").asText(), arg.serializeHex());
                compare(where + " arg " + i + " repr", args.get(i).get("repr").asText(), arg.repr());
                // Without an ABI (empty name) the peer derives the type from the value, as typeSignature() does.
                if (args.get(i).get("name").asText().isEmpty()) {
                    compare(where + " arg " + i + " type", args.get(i).get("type").asText(), arg.typeSignature());
                }
            }
        } else if (payload instanceof TransactionPayload.Coinbase coinbase) {
            JsonNode p = peer.get("coinbase_payload");
            compare(where + " coinbase data", p.get("data").asText(), coinbase.payload());
            compare(where + " alt_recipient", p.get("alt_recipient").isNull() ? null : p.get("alt_recipient").asText(),
                    coinbase.altRecipient().map(Object::toString).orElse(null));
        }
    }

    private void compare(String what, Object expected, Object actual) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            failures.add(what + ": peer " + expected + ", ours " + actual);
        }
    }
}
