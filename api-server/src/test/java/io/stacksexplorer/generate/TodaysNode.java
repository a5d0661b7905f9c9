package io.stacksexplorer.generate;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a node of epoch 3.3 or later (stacks-core 4.0.x) writes beyond the recorded Nakamoto log, as
 * read in its source: {@code stacks-node/src/event_dispatcher/payloads.rs}
 * ({@code make_new_block_processed_payload}, {@code TransactionEventPayload}, {@code RewardSetEventPayload})
 * and {@code stackslib/src/chainstate/burn/operations/mod.rs} ({@code blockstack_op_to_json},
 * {@code stacks_addr_serialize}). Used by {@link PayloadShapeTest} where no recorded log has the object.
 */
final class TodaysNode {

    private TodaysNode() {
    }

    /** Keys and JSON value types of each executed operation's body (everywhere: all of them). */
    private static final Map<String, Map<String, Set<String>>> OPERATIONS = Map.of(
            "* burnchain_op transfer_stx", Map.of("burn_block_height", Set.of("NUMBER"), "burn_header_hash",
                    Set.of("STRING"), "memo", Set.of("STRING"), "recipient", Set.of("OBJECT"), "sender",
                    Set.of("OBJECT"), "transfered_ustx", Set.of("NUMBER"), "burn_txid", Set.of("STRING"),
                    "vtxindex", Set.of("NUMBER")),
            "* burnchain_op stack_stx", Map.ofEntries(Map.entry("burn_block_height", Set.of("NUMBER")),
                    Map.entry("burn_header_hash", Set.of("STRING")), Map.entry("num_cycles", Set.of("NUMBER")),
                    Map.entry("reward_addr", Set.of("STRING")), Map.entry("sender", Set.of("OBJECT")),
                    Map.entry("stacked_ustx", Set.of("NUMBER")), Map.entry("burn_txid", Set.of("STRING")),
                    Map.entry("vtxindex", Set.of("NUMBER")), Map.entry("signer_key", Set.of("STRING", "NULL")),
                    Map.entry("max_amount", Set.of("NUMBER", "NULL")), Map.entry("auth_id", Set.of("NUMBER", "NULL"))),
            "* burnchain_op delegate_stx", Map.of("burn_block_height", Set.of("NUMBER"), "burn_header_hash",
                    Set.of("STRING"), "delegate_to", Set.of("OBJECT"), "delegated_ustx", Set.of("NUMBER"), "sender",
                    Set.of("OBJECT"), "reward_addr", Set.of("ARRAY", "NULL"), "burn_txid", Set.of("STRING"),
                    "until_burn_height", Set.of("NUMBER", "NULL"), "vtxindex", Set.of("NUMBER")),
            "* burnchain_op vote_for_aggregate_key", Map.of("burn_block_height", Set.of("NUMBER"),
                    "burn_header_hash", Set.of("STRING"), "aggregate_key", Set.of("STRING"), "reward_cycle",
                    Set.of("NUMBER"), "round", Set.of("NUMBER"), "sender", Set.of("OBJECT"), "signer_index",
                    Set.of("NUMBER"), "signer_key", Set.of("STRING"), "burn_txid", Set.of("STRING"), "vtxindex",
                    Set.of("NUMBER")),
            "* burnchain_op address", Map.of("address", Set.of("STRING"), "address_hash_bytes", Set.of("STRING"),
                    "address_version", Set.of("NUMBER")));

    /**
     * The shape of {@code kind}: a Bitcoin operation's from the serializer; a block object of today's node
     * from {@code nakamoto} (the recorded Nakamoto shape of the same object) and the source's additions.
     */
    static PayloadShapeTest.Shape shape(String kind, PayloadShapeTest.Shape nakamoto) {
        PayloadShapeTest.Shape shape = new PayloadShapeTest.Shape();
        shape.instances = 1;
        if (kind.equals("* burnchain_op")) {
            // One key naming the kind. pre_stx has a serializer too, but only operations a node executes
            // (stack, transfer, delegate, vote) become receipts.
            for (String k : Set.of("stack_stx", "transfer_stx", "delegate_stx", "vote_for_aggregate_key")) {
                shape.union.add(k);
                shape.types.put(k, new TreeSet<>(Set.of("OBJECT")));
            }
            shape.everywhere = new TreeSet<>();
            return shape;
        }
        Map<String, Set<String>> keys = OPERATIONS.get(kind);
        if (keys != null) {
            keys.forEach((k, types) -> {
                shape.union.add(k);
                shape.types.put(k, new TreeSet<>(types));
            });
            shape.everywhere = new TreeSet<>(shape.union);
            return shape;
        }
        if (nakamoto == null) {
            return null;
        }
        shape.union.addAll(nakamoto.union);
        shape.everywhere = new TreeSet<>(nakamoto.everywhere);
        nakamoto.types.forEach((k, v) -> shape.types.put(k, new TreeSet<>(v)));
        switch (kind) {
            case "T /new_block" -> {
                // pox_constants.pox_5_activation_height, on every block.
                shape.union.add("pox_v4_unlock_height");
                shape.everywhere.add("pox_v4_unlock_height");
                shape.types.put("pox_v4_unlock_height", new TreeSet<>(Set.of("NUMBER")));
            }
            case "T /new_block transactions[]" -> {
                // Only when the signers marked the transaction problematic (epoch 4.0): the category byte.
                shape.union.add("problematic_skipped");
                shape.types.put("problematic_skipped", new TreeSet<>(Set.of("NUMBER")));
                shape.types.computeIfAbsent("burnchain_op", k -> new TreeSet<>()).add("OBJECT");
                shape.types.computeIfAbsent("vm_error", k -> new TreeSet<>()).add("STRING");
            }
            case "T /new_block reward_set" ->
                    // A pox-5 (waterfall) reward set: no threshold.
                    shape.types.computeIfAbsent("pox_ustx_threshold", k -> new TreeSet<>()).add("NULL");
            default -> {
            }
        }
        return shape;
    }
}
