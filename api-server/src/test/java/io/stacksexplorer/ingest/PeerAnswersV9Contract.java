package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Today's peer (v9.0.2) value for value: {@code shared/data/peer-answers-v9/gen5k} holds what it
 * answered on all ten routes, the three cursor-paged successors' walks included, for the chain of
 * the generated log beside the answers. The log is replayed with the chain id the peer ran it with
 * and every answer compared as {@link PeerAnswers} does (every field of a peer 200 in ours with the
 * same value, every other status the same). Skipped when the shared data is absent.
 *
 * <p>The answers that differ on purpose are listed in {@link #DELIBERATE} with the reason, each one
 * documented in the spec (the operations' descriptions) or in the folder's README as a peer bug; a
 * difference anywhere else fails.
 */
abstract class PeerAnswersV9Contract {

    abstract TestDatabase database();

    /** Block 0's transaction, which the peer's principal index leaves at height 0 (README, "Peer bugs"). */
    static final String GENESIS_TX = "0x4fc758019df06f5a9b6e4ddbfd3e2bc4d71d5a867ce5dc8c5642635ce7de294d";

    /**
     * Mined on the winning fork after a reorg, still pending at the peer (README, "Peer bugs"), and the
     * sponsored transaction the peer drops as replaced by fee by comparing its origin nonce with
     * another's sponsor nonce; pending here.
     */
    static final Set<String> PEER_MEMPOOL_BUGS = Set.of(
            "0x5bc6d263fa1ca7d100b9d986609751d8bb57ed4da3c90031a626b7363d9ef987",
            "0x7b2587d7dee4a1df45f144a038d232822a18fa4b55de11afe3c94f0fb5c9c60b",
            "0xc34cd81dfeb535c79bfcb52d20f1e28debd5c766acb156302db72e8a5156a55e",
            "0xd9f581717769a82dd1b6de81299274b6fa16671fb2324bcd1d82133639a28def",
            "0xc11ea0fedb96ebf5375caf0930b649f369de27e343203b9b78dc58793362cef4",
            "0x460777c04990e1bcae314fdc45ab2b63a768f1245aca7fb1a716f07df460550e");

    /** Answers that differ by a decision of the spec or a peer bug the folder's README lists, by file. */
    static final Map<String, String> DELIBERATE = Map.of(
            "0003.json", "block 1's tx_count counts block 0's transaction, folded into it (spec, genesis block);"
                    + " the peer leaves it out",
            "0550.json", "the genesis transaction carries block 1's times here; the peer keeps block 0's"
                    + " (README, peer bugs)",
            "0778.json", "a bad address checksum is a 400 here (spec: v3 principal transactions); the peer"
                    + " answers an empty 200",
            "0909.json", "a mempool cursor without 0x is read like one with it (spec); the peer answers 500",
            "1033.json", "a malformed contract id is a 400 here (spec: contract logs); the peer answers an empty 200",
            "1040.json", "a negative offset is a 400 here (spec: contract logs); the peer answers 500");

    /** Differences not decided on, reported and not failed. */
    static final Map<String, String> KNOWN = Map.of();

    @Test
    void gen5kAnswersAreMatched() throws IOException {
        var folder = IngestServer.sharedData("peer-answers-v9");
        Assumptions.assumeTrue(folder.isPresent(), "no shared/data/peer-answers-v9 beside the project");
        Path dir = folder.get().resolve("gen5k");
        Path log = Files.createTempFile("gen5k", ".tsv");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(dir.resolve("gen5k.tsv.gz")))) {
            Files.copy(in, log, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        PeerAnswers.Result result;
        try (IngestServer server = IngestServer.start(database(), "0x00000001")) {
            TsvReplay.replay(log, server.ingestor(), true, n -> { });
            PeerV9Normalise normalise = new PeerV9Normalise(server);
            Map<String, String> deliberate = new java.util.HashMap<>(normalise.mempoolBugFiles(dir));
            deliberate.putAll(DELIBERATE);
            result = PeerAnswers.compare(server, dir, new PeerAnswers.Rules(deliberate, KNOWN, normalise));
        } finally {
            Files.deleteIfExists(log);
        }
        System.out.printf("peer answers v9 [%s]: %s; deliberate differences match %d/%d of their values%n",
                database(), result, result.deliberateLeaves[1], result.deliberateLeaves[0]);
        result.explained.forEach(line -> System.out.println("  deliberate: " + line));
        if (!result.failures.isEmpty()) {
            fail(result.failures.size() + " peer answers differ:\n" + String.join("\n", result.failures));
        }
        assertTrue(result.matched > 0, "nothing compared");
    }
}
