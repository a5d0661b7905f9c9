package io.stacksexplorer.generate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.tx.NodeEventsReplayTest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generator cannot drift from what nodes send: per delivery path and era, every object the
 * generator writes (block, transaction, event and its body, burn block, reward set, ...) has the
 * keys the recorded logs in {@code shared/data/stacks-node-events} have for that object, and each
 * key's JSON value types are among those recorded.
 *
 * <p>References: Nakamoto-era objects are compared with {@code fuzzed-transactions-1.tsv} (a 2025
 * node: the newest payload shape recorded); 2.x-era blocks and burn blocks with the 2.x blocks of
 * the {@code regtest-env-pox-4-*} logs (a 2.5 node, which writes the signer and reward-set keys as
 * null); mempool, drop, microblock and event bodies with every recorded log that has them. A key
 * set must equal the recorded union, and the keys every recorded instance has must be in every
 * generated instance. Value types are compared with the union over all recorded logs (a 2.5 node
 * writes {@code cycle_number} as a number where the 2025 node's regtest wrote null).
 *
 * <p>No recorded log is of a node of epoch 3.3 or later: the blocks of a mixed log's later epochs
 * (kind {@code T}) are compared with the Nakamoto reference plus what stacks-core's source adds
 * ({@link TodaysNode}), and Bitcoin operations with the key sets of its serializer.
 */
class PayloadShapeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Keys and value types of one kind of object, over every instance seen. */
    static final class Shape {
        final Set<String> union = new TreeSet<>();
        Set<String> everywhere;
        final Map<String, Set<String>> types = new TreeMap<>();
        int instances;

        void add(JsonNode object) {
            Set<String> keys = new TreeSet<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                keys.add(field.getKey());
                types.computeIfAbsent(field.getKey(), k -> new TreeSet<>()).add(field.getValue().getNodeType().name());
            }
            union.addAll(keys);
            if (everywhere == null) {
                everywhere = new TreeSet<>(keys);
            } else {
                everywhere.retainAll(keys);
            }
            instances++;
        }
    }

    /** Shapes by "era kind": e.g. "3 /new_block", "3 /new_block transactions[]", "* event stx_lock_event". */
    static final class Shapes {
        final Map<String, Shape> byKind = new TreeMap<>();

        void add(String kind, JsonNode object) {
            if (object != null && object.isObject()) {
                byKind.computeIfAbsent(kind, k -> new Shape()).add(object);
            }
        }

        /** One delivery of a log; {@code era} "2" or "3" for blocks and burn blocks. */
        void delivery(String path, JsonNode body, String era) {
            switch (path) {
                case "/new_block" -> {
                    add(era + " /new_block", body);
                    add(era + " /new_block anchored_cost", body.get("anchored_cost"));
                    add(era + " /new_block reward_set", body.get("reward_set"));
                    body.path("reward_set").path("signers").forEach(s -> add("* reward_set signers[]", s));
                    body.path("matured_miner_rewards").forEach(r -> add("* matured_miner_rewards[]", r));
                    body.path("transactions").forEach(t -> {
                        add(era + " /new_block transactions[]", t);
                        add("* execution_cost", t.get("execution_cost"));
                        JsonNode op = t.get("burnchain_op");
                        if (op != null && op.isObject()) {
                            add("* burnchain_op", op);
                            op.fields().forEachRemaining(kind -> {
                                add("* burnchain_op " + kind.getKey(), kind.getValue());
                                for (String party : List.of("sender", "recipient", "delegate_to")) {
                                    add("* burnchain_op address", kind.getValue().get(party));
                                }
                            });
                        }
                    });
                    events(body);
                }
                case "/new_burn_block" -> add(era + " /new_burn_block", body);
                case "/new_microblocks" -> {
                    add("2 /new_microblocks", body);
                    body.path("transactions").forEach(t -> add("2 /new_microblocks transactions[]", t));
                    events(body);
                }
                case "/drop_mempool_tx" -> add("* /drop_mempool_tx", body);
                case "/new_mempool_tx" -> {
                    assertTrue(body.isArray(), "a mempool delivery is an array");
                    body.forEach(raw -> assertTrue(raw.isTextual() && raw.asText().startsWith("0x"), "raw tx hex"));
                }
                default -> {
                }
            }
        }

        private void events(JsonNode body) {
            body.path("events").forEach(e -> {
                add("* event", e);
                String type = e.path("type").asText();
                add("* event " + type, e.get(type));
            });
        }
    }

    private static Shapes recorded2x;
    private static Shapes recorded3;
    private static Shapes recordedAny;

    @BeforeAll
    static void readRecordedLogs() throws IOException {
        Optional<Path> folder = NodeEventsReplayTest.eventsFolder();
        Assumptions.assumeTrue(folder.isPresent(), "no shared/data/stacks-node-events beside the project");
        recorded2x = new Shapes();
        recorded3 = new Shapes();
        recordedAny = new Shapes();
        try (var files = Files.list(folder.get())) {
            for (Path file : files.filter(f -> f.toString().endsWith(".tsv")).sorted().toList()) {
                String name = file.getFileName().toString();
                for (String line : Files.readAllLines(file)) {
                    String[] c = line.split("\t", 4);
                    if (c.length < 4) {
                        continue;
                    }
                    JsonNode body = JSON.readTree(c[3]);
                    String era = body.has("signer_signature_hash") ? "3" : "2";
                    recordedAny.delivery(c[2], body, era);
                    if (name.startsWith("fuzzed-transactions") && (era.equals("3") || !c[2].equals("/new_block"))) {
                        recorded3.delivery(c[2], body, "3");
                    } else if (name.startsWith("regtest-env-pox-4") && era.equals("2")) {
                        recorded2x.delivery(c[2], body, "2");
                    } else if (!c[2].equals("/new_block") && !c[2].equals("/new_burn_block")) {
                        recorded2x.delivery(c[2], body, "2");
                    }
                }
            }
        }
    }

    @Test
    void aMixedLogHasTheRecordedShapeOfEachEra() throws IOException {
        check(generated(Era.MIXED, 8_000, 5), Set.of("2", "3", "T"));
    }

    @Test
    void aNakamotoOnlyLogHasTheRecordedNakamotoShape() throws IOException {
        check(generated(Era.THREE, 3_000, 6), Set.of("3"));
    }

    @Test
    void aTwoXLogHasTheRecordedTwoXShape() throws IOException {
        check(generated(Era.TWO, 3_000, 7), Set.of("2"));
    }

    private static void check(Shapes generated, Set<String> eras) {
        List<String> problems = new ArrayList<>();
        int compared = 0;
        for (Map.Entry<String, Shape> entry : generated.byKind.entrySet()) {
            String kind = entry.getKey();
            Shape ours = entry.getValue();
            Shape theirs = reference(kind);
            Shape anyEra = recordedAny.byKind.get(kind.startsWith("*") ? kind : "2" + kind.substring(1));
            Shape anyEra3 = recordedAny.byKind.get(kind.startsWith("*") ? kind : "3" + kind.substring(1));
            if (theirs == null) {
                problems.add(kind + ": no recorded object of this kind to compare with");
                continue;
            }
            compared++;
            if (!ours.union.equals(theirs.union)) {
                Set<String> extra = new TreeSet<>(ours.union);
                extra.removeAll(theirs.union);
                Set<String> missing = new TreeSet<>(theirs.union);
                missing.removeAll(ours.union);
                problems.add(kind + ": keys not recorded " + extra + ", recorded keys never generated " + missing);
            }
            if (!ours.everywhere.containsAll(theirs.everywhere)) {
                Set<String> sometimes = new TreeSet<>(theirs.everywhere);
                sometimes.removeAll(ours.everywhere);
                problems.add(kind + ": keys every recorded object has but some generated ones lack " + sometimes);
            }
            for (Map.Entry<String, Set<String>> typed : ours.types.entrySet()) {
                Set<String> allowed = new TreeSet<>();
                // The Nakamoto node calls a deployment's contract_abi contract_interface: same value.
                List<String> names = typed.getKey().equals("contract_interface")
                        ? List.of("contract_interface", "contract_abi") : List.of(typed.getKey());
                for (Shape s : new Shape[]{theirs, anyEra, anyEra3, recordedAny.byKind.get("2" + kind.substring(1))}) {
                    for (String name : names) {
                        if (s != null && s.types.containsKey(name)) {
                            allowed.addAll(s.types.get(name));
                        }
                    }
                }
                if (kind.equals("* /drop_mempool_tx") && typed.getKey().equals("new_txid")) {
                    // The recorded drops are all garbage collections; a replace-by-fee names the new id.
                    allowed.add("STRING");
                }
                if (!allowed.containsAll(typed.getValue())) {
                    problems.add(kind + "." + typed.getKey() + ": generated types " + typed.getValue()
                            + ", recorded " + allowed);
                }
            }
        }
        for (String era : eras) {
            if (era.equals("T")) {
                assertTrue(generated.byKind.containsKey("T /new_block"), "the log has blocks of today's node");
                continue;
            }
            assertTrue(generated.byKind.containsKey(era + " /new_block"), "the log has " + era + ".x blocks");
            assertTrue(generated.byKind.containsKey(era + " /new_burn_block"), "the log has " + era + ".x burn blocks");
        }
        assertEquals(List.of(), problems, "generated payloads differ in shape from the recorded logs");
        assertTrue(compared >= 10, "compared " + compared + " kinds of object");
    }

    /**
     * The recorded shape to compare with. Where the recorded logs lack a kind, a stated stand-in:
     * the Nakamoto reference log has no reward set, so the 2.5 node's (same node code) stands in;
     * none has a token burn, so a burn is compared with the mint of its asset class, whose body the
     * node writes the same way with {@code sender} for {@code recipient}.
     */
    private static Shape reference(String kind) {
        Shape shape;
        if (kind.startsWith("T ")) {
            return TodaysNode.shape(kind, reference("3" + kind.substring(1)));
        } else if (kind.startsWith("* burnchain_op")) {
            return TodaysNode.shape(kind, null);
        } else if (kind.startsWith("3 ")) {
            shape = recorded3.byKind.get(kind);
            if (shape == null && kind.equals("3 /new_block reward_set")) {
                shape = recordedAny.byKind.get("2 /new_block reward_set");
            }
        } else if (kind.startsWith("2 ")) {
            shape = recorded2x.byKind.get(kind);
        } else {
            shape = recordedAny.byKind.get(kind);
        }
        if (shape == null && kind.startsWith("* event ") && kind.endsWith("_burn_event")) {
            Shape mint = recordedAny.byKind.get(kind.replace("_burn_event", "_mint_event"));
            if (mint != null) {
                shape = renamed(mint, "recipient", "sender");
            }
        }
        if (shape != null && kind.equals("* event")) {
            // An event names its body after its type: the burn types stand in as the mints do.
            shape = renamed(renamed(shape, "ft_mint_event", "ft_burn_event", true), "nft_mint_event",
                    "nft_burn_event", true);
        }
        return shape;
    }

    /** A copy of {@code shape} with key {@code from} called {@code to} (or, with {@code alsoKeep}, both). */
    private static Shape renamed(Shape shape, String from, String to, boolean alsoKeep) {
        Shape copy = new Shape();
        copy.instances = shape.instances;
        copy.union.addAll(shape.union);
        copy.everywhere = new TreeSet<>(shape.everywhere);
        shape.types.forEach((k, v) -> copy.types.put(k, new TreeSet<>(v)));
        if (copy.union.contains(from)) {
            copy.union.add(to);
            copy.types.put(to, new TreeSet<>(shape.types.get(from)));
            if (!alsoKeep) {
                copy.union.remove(from);
                copy.types.remove(from);
                if (copy.everywhere.remove(from)) {
                    copy.everywhere.add(to);
                }
            }
        }
        return copy;
    }

    private static Shape renamed(Shape shape, String from, String to) {
        return renamed(shape, from, to, false);
    }

    /** A generated log's shapes; burn blocks and blocks by the era the summary says they are in. */
    private static Shapes generated(Era era, long transactions, long seed) throws IOException {
        StringWriter out = new StringWriter();
        GeneratorSummary summary = new ChainGenerator(seed, era).generate(transactions, out, n -> { });
        long activation = summary.epoch3ActivationBurnHeight() < 0 ? Long.MAX_VALUE
                : summary.epoch3ActivationBurnHeight();
        Shapes shapes = new Shapes();
        for (String line : out.toString().split("\n")) {
            String[] c = line.split("\t", 4);
            JsonNode body = JSON.readTree(c[3]);
            String bodyEra = switch (c[2]) {
                // A node of epoch 3.3 or later: today's shape (TodaysNode).
                case "/new_block" -> body.has("pox_v4_unlock_height") ? "T"
                        : body.has("signer_signature_hash") ? "3" : "2";
                case "/new_burn_block" -> body.path("burn_block_height").asLong() >= activation ? "3" : "2";
                default -> "*";
            };
            if (c[2].equals("/new_block") && !bodyEra.equals("2")) {
                assertTrue(body.path("burn_block_height").asLong() >= activation, "Nakamoto blocks after activation");
            }
            shapes.delivery(c[2], body, bodyEra);
        }
        return shapes;
    }
}
