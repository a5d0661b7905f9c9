package io.stacksexplorer.codec.tx;

import io.stacksexplorer.http.SharedData;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Decodes every transaction and Clarity value in the recorded node payloads under
 * {@code shared/data/stacks-node-events} (beside the project root). Skipped when that folder is absent.
 */
public class NodeEventsReplayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the node sends as {@code raw_tx} for burnchain operations (stack-stx, transfer-stx via Bitcoin). */
    private static final String BURNCHAIN_OP_RAW_TX = "0x00";

    private final Map<String, Integer> payloadKinds = new TreeMap<>();
    private int transactions;
    private int burnchainOps;
    private int clarityValues;
    private int addresses;

    @Test
    void decodesEveryRecordedTransactionAndClarityValue() throws IOException {
        Optional<Path> folder = eventsFolder();
        Assumptions.assumeTrue(folder.isPresent(), "no shared/data/stacks-node-events beside the project");
        List<Path> files;
        try (Stream<Path> listing = Files.list(folder.get())) {
            files = listing.filter(p -> p.toString().endsWith(".tsv")).sorted().toList();
        }
        assertTrue(files.size() > 0, "no .tsv files in " + folder.get());
        List<String> failures = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String where = file.getFileName() + ":" + (i + 1);
                try {
                    replayLine(lines.get(i));
                } catch (RuntimeException | AssertionError e) {
                    failures.add(where + ": " + e);
                }
            }
        }
        System.out.printf("node events: %d files, %d transactions decoded (%d burnchain ops skipped),"
                        + " %d Clarity values decoded, %d addresses round-tripped, payload kinds %s%n",
                files.size(), transactions, burnchainOps, clarityValues, addresses, payloadKinds);
        if (!failures.isEmpty()) {
            fail(failures.size() + " failures:\n" + String.join("\n", failures));
        }
        assertTrue(transactions > 0, "no transactions found");
    }

    private void replayLine(String line) throws IOException {
        String[] columns = line.split("\t", 4);
        assertEquals(4, columns.length, "expected 4 tab-separated columns");
        String path = columns[2];
        JsonNode body = JSON.readTree(columns[3]);
        switch (path) {
            case "/new_block", "/new_microblocks" -> {
                for (JsonNode tx : body.path("transactions")) {
                    replayMinedTransaction(tx);
                }
                for (JsonNode event : body.path("events")) {
                    JsonNode rawValue = event.path("contract_event").path("raw_value");
                    if (!rawValue.isMissingNode()) {
                        checkClarityValue(rawValue.asText());
                    }
                }
            }
            case "/new_mempool_tx" -> {
                for (JsonNode rawTx : body) {
                    checkTransaction(rawTx.asText(), null);
                }
            }
            default -> {
                // /new_burn_block, /drop_mempool_tx, ... carry no transactions or Clarity values.
            }
        }
    }

    private void replayMinedTransaction(JsonNode tx) {
        String rawTx = tx.path("raw_tx").asText();
        if (BURNCHAIN_OP_RAW_TX.equals(rawTx)) {
            assertTrue(!tx.path("burnchain_op").isNull() && !tx.path("burnchain_op").isMissingNode(),
                    "raw_tx 0x00 without a burnchain_op");
            burnchainOps++;
        } else {
            checkTransaction(rawTx, tx.path("txid").asText(null));
        }
        checkClarityValue(tx.path("raw_result").asText());
    }

    private void checkTransaction(String rawHex, String expectedTxId) {
        byte[] raw = Hex.decode(rawHex);
        StacksTransaction tx = StacksTransaction.decode(raw);
        assertEquals(Sha512_256.txId(raw), tx.txId());
        if (expectedTxId != null) {
            assertEquals(expectedTxId, tx.txId());
        }
        transactions++;
        payloadKinds.merge(kind(tx), 1, Integer::sum);

        roundTrip(tx.senderAddress());
        tx.sponsorAddress().ifPresent(this::roundTrip);
        for (PostCondition condition : tx.postConditions()) {
            if (condition.principal() instanceof PostConditionPrincipal.Standard standard) {
                roundTrip(standard.address());
            } else if (condition.principal() instanceof PostConditionPrincipal.Contract contract) {
                roundTrip(contract.contract());
            }
            if (condition instanceof PostCondition.Fungible fungible) {
                roundTrip(fungible.asset().contract());
            } else if (condition instanceof PostCondition.NonFungible nft) {
                roundTrip(nft.asset().contract());
                checkClarityValue(nft.assetValue().serializeHex());
            }
        }
        TransactionPayload payload = tx.payload();
        if (payload instanceof TransactionPayload.TokenTransfer transfer) {
            roundTrip(transfer.recipient());
        } else if (payload instanceof TransactionPayload.ContractCall call) {
            roundTrip(call.contract());
            call.functionArgs().forEach(arg -> checkClarityValue(arg.serializeHex()));
        } else if (payload instanceof TransactionPayload.Coinbase coinbase) {
            coinbase.altRecipient().ifPresent(this::roundTrip);
        }
        tx.smartContractId().ifPresent(this::roundTrip);
    }

    private static String kind(StacksTransaction tx) {
        String kind = tx.payload().txType() + String.format("/0x%02x", tx.payload().typeId());
        if (tx.isSponsored()) {
            kind += "/sponsored";
        }
        if (tx.origin() instanceof SpendingCondition.MultiSig) {
            kind += "/multisig-" + tx.origin().hashMode();
        }
        return kind;
    }

    private void checkClarityValue(String hex) {
        ClarityValue value = ClarityValue.decodeHex(hex);
        assertArrayEquals(Hex.decode(hex), value.serialize(), "re-encoding " + hex);
        assertTrue(!value.repr().isEmpty());
        clarityValues++;
    }

    private void roundTrip(Principal principal) {
        String text = principal.toString();
        assertEquals(principal.address(), StacksAddress.parse(principal.address().toString()), text);
        // Contract names over 40 characters are legal on the wire but not deployable, so parse() refuses them.
        if (!(principal instanceof ContractId contract) || contract.name().length() <= 40) {
            assertEquals(principal, Principal.parse(text), "round trip of " + text);
        }
        addresses++;
    }

    /** {@code <project root>/../shared/data/stacks-node-events}, the root being the first ancestor holding spec and api-server. */
    public static Optional<Path> eventsFolder() {
        return SharedData.folder("stacks-node-events");
    }
}
