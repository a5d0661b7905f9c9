package io.stacksexplorer.generate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.address.StacksAddress;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mixed log's epochs 3.3 to 4.0 on the wire: per feature, the generator's transaction bytes against
 * the layout its SIP gives (SIP-005 as amended by SIP-034, SIP-040 and SIP-044), built here byte by byte
 * from facts the receipt states elsewhere (events, block fields), never by the project's encoder; and
 * the receipts of problematic transactions and Bitcoin operations as stacks-core writes them.
 */
class TodaysChainWireTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One mined transaction with its block and the epoch of its burn block. */
    private record Mined(JsonNode block, JsonNode tx, String epoch, byte[] raw, List<JsonNode> events) {
    }

    private static GeneratorSummary summary;
    private static final List<Mined> mined = new ArrayList<>();

    @BeforeAll
    static void generate() throws IOException {
        StringWriter out = new StringWriter();
        summary = new ChainGenerator(5, Era.MIXED).generate(8_000, out, n -> { });
        for (String line : out.toString().split("\n")) {
            String[] c = line.split("\t", 4);
            if (!c[2].equals("/new_block")) {
                continue;
            }
            JsonNode block = JSON.readTree(c[3]);
            Map<String, List<JsonNode>> events = new HashMap<>();
            block.get("events").forEach(e -> events.computeIfAbsent(e.get("txid").asText(), k -> new ArrayList<>())
                    .add(e));
            String epoch = epochOf(block);
            for (JsonNode tx : block.get("transactions")) {
                mined.add(new Mined(block, tx, epoch, Hex.decode(tx.get("raw_tx").asText()),
                        events.getOrDefault(tx.get("txid").asText(), List.of())));
            }
        }
    }

    private static String epochOf(JsonNode block) {
        String epoch = block.has("signer_signature_hash") ? "3.0" : "2.x";
        long burnHeight = block.get("burn_block_height").asLong();
        for (Map.Entry<String, Long> e : summary.epochs().entrySet()) {
            if (burnHeight >= e.getValue()) {
                epoch = e.getKey();
            }
        }
        return epoch;
    }

    @Test
    void theEpochsComeInMainnetOrderAndTodaysNodeWritesPoxV4UnlockHeight() {
        assertEquals(List.of("3.3", "3.4", "4.0"), List.copyOf(summary.epochs().keySet()));
        long previous = summary.epoch3ActivationBurnHeight();
        for (long height : summary.epochs().values()) {
            assertTrue(height > previous, summary.epochs().toString());
            previous = height;
        }
        for (Mined m : mined) {
            boolean today = !m.epoch().equals("2.x") && !m.epoch().equals("3.0");
            assertEquals(today, m.block().has("pox_v4_unlock_height"));
            if (today) {
                assertEquals(960_230, m.block().get("pox_v4_unlock_height").asLong());
            }
        }
    }

    /** SIP-034: payload 0x07, three consensus hashes, the last block's id and the tenure's block count, cause, key hash. */
    @Test
    void tenureExtensionsByCauseFollowSip034() {
        Set<Integer> causes = new TreeSet<>();
        Map<String, Integer> blocksInTenure = new HashMap<>();
        Set<String> seen = new java.util.HashSet<>();
        for (Mined m : mined) {
            String consensus = m.block().path("consensus_hash").asText();
            if (m.block().has("signer_signature_hash") && seen.add(m.block().get("index_block_hash").asText())) {
                blocksInTenure.merge(consensus, 1, Integer::sum);
            }
            if (m.raw().length < 2 || payload(m.raw())[0] != 0x07) {
                continue;
            }
            byte[] payload = payload(m.raw());
            int cause = payload[payload.length - 21];
            if (cause < 2) {
                continue;
            }
            assertFalse(m.epoch().equals("2.x") || m.epoch().equals("3.0"), "SIP-034 causes from epoch 3.3");
            causes.add(cause);
            byte[] ch = Hex.decode(consensus);
            byte[] expected = concat(new byte[]{0x07}, ch, ch, ch, Hex.decode(m.block().get("parent_index_block_hash")
                    .asText()), u32(blocksInTenure.get(consensus) - 1), new byte[]{(byte) cause}, signer(m.raw()));
            assertArrayEquals(expected, payload, m.tx().get("txid").asText());
        }
        assertEquals(Set.of(2, 3, 4, 5, 6), causes);
    }

    /** SIP-040: mode byte 0x03; the trader's own STX condition is type 0x00, origin 0x01, sent_equal_to 0x01. */
    @Test
    void originatorModeFollowsSip040() {
        int originator = 0;
        for (Mined m : mined) {
            Header h = new Header(m.raw());
            if (h.mode != 0x03) {
                continue;
            }
            assertTrue(m.epoch().equals("3.4") || m.epoch().equals("4.0"), "originator from epoch 3.4");
            originator++;
            JsonNode sent = m.events().stream().filter(e -> e.get("type").asText().equals("stx_transfer_event"))
                    .map(e -> e.get("stx_transfer_event")).filter(e -> e.get("recipient").asText().endsWith(".demo-dex"))
                    .findFirst().orElse(null);
            if (sent != null && m.tx().get("status").asText().equals("success")) {
                assertArrayEquals(concat(new byte[]{0x00, 0x01, 0x01}, u64(Long.parseLong(sent.get("amount").asText()))),
                        h.conditions.get(0), m.tx().get("txid").asText());
            }
        }
        assertTrue(originator > 0);
    }

    /** SIP-040: NFT condition 0x02, standard principal 0x02, asset info, the token's value, code 0x12. */
    @Test
    void maybeSentFollowsSip040() {
        int maybeSent = 0;
        for (Mined m : mined) {
            for (byte[] condition : new Header(m.raw()).conditions) {
                if (condition[0] != 0x02 || condition[condition.length - 1] != 0x12) {
                    continue;
                }
                assertTrue(m.epoch().equals("3.4") || m.epoch().equals("4.0"), "maybe_sent from epoch 3.4");
                JsonNode moved = m.events().stream().filter(e -> e.get("type").asText().equals("nft_transfer_event"))
                        .findFirst().orElseThrow().get("nft_transfer_event");
                String[] asset = moved.get("asset_identifier").asText().split("::");
                StacksAddress contract = StacksAddress.parse(asset[0].substring(0, asset[0].indexOf('.')));
                String contractName = asset[0].substring(asset[0].indexOf('.') + 1);
                byte[] expected = concat(new byte[]{0x02, 0x02, (byte) version(m.raw())}, signer(m.raw()),
                        new byte[]{(byte) contract.version()}, contract.hash160(), name(contractName), name(asset[1]),
                        Hex.decode(moved.get("raw_value").asText()), new byte[]{0x12});
                assertArrayEquals(expected, condition, m.tx().get("txid").asText());
                maybeSent++;
            }
        }
        assertTrue(maybeSent > 0);
    }

    /** SIP-005 versioned smart contract (0x06): Clarity 5 from epoch 3.4, 6 from 4.0; name and code as sent. */
    @Test
    void deploymentsNameClarity5From34AndClarity6From40() {
        Map<String, Set<Integer>> versions = new HashMap<>();
        for (Mined m : mined) {
            if (m.raw().length < 2 || payload(m.raw())[0] != 0x06) {
                continue;
            }
            byte[] payload = payload(m.raw());
            int version = payload[1];
            versions.computeIfAbsent(m.epoch(), k -> new TreeSet<>()).add(version);
            int nameLength = payload[2];
            String contractName = new String(payload, 3, nameLength, StandardCharsets.US_ASCII);
            byte[] code = java.util.Arrays.copyOfRange(payload, 3 + nameLength + 4, payload.length);
            assertArrayEquals(concat(new byte[]{0x06, (byte) version}, name(contractName), u32(code.length), code),
                    payload);
        }
        assertEquals(Set.of(5), versions.get("3.4"));
        assertEquals(Set.of(6), versions.get("4.0"));
        assertTrue(versions.get("3.0").stream().allMatch(v -> v <= 2), versions.toString());
    }

    /** SIP-044: staking 0x03 (principal, fungible code, u64 amount) and pox 0x04 (principal, 0x30-0x32). */
    @Test
    void stakingAndPoxConditionsFollowSip044() {
        int staking = 0;
        int pox = 0;
        for (Mined m : mined) {
            for (byte[] condition : new Header(m.raw()).conditions) {
                if (condition[0] == 0x03) {
                    assertEquals("4.0", m.epoch());
                    JsonNode lock = m.events().stream().filter(e -> e.get("type").asText().equals("stx_lock_event"))
                            .findFirst().orElseThrow().get("stx_lock_event");
                    assertEquals("SP000000000000000000002Q6VF78.pox-5", lock.get("contract_identifier").asText());
                    assertArrayEquals(concat(new byte[]{0x03, 0x01, 0x01},
                            u64(Long.parseLong(lock.get("locked_amount").asText()))), condition);
                    staking++;
                } else if (condition[0] == 0x04) {
                    assertEquals("4.0", m.epoch());
                    assertEquals(3, condition.length);
                    assertEquals(0x01, condition[1]);
                    assertTrue(condition[2] >= 0x30 && condition[2] <= 0x32);
                    pox++;
                }
            }
        }
        assertTrue(staking > 0 && pox > 0, staking + " staking, " + pox + " pox");
    }

    /** stacks-core's receipt of a skipped transaction: (err none), no events, zero cost, the marker's category. */
    @Test
    void problematicTransactionsAreMinedUnrun() {
        int skipped = 0;
        for (Mined m : mined) {
            if (!m.tx().get("status").asText().equals("problematic_skipped")) {
                assertFalse(m.tx().has("problematic_skipped"));
                continue;
            }
            assertEquals("4.0", m.epoch());
            assertEquals("0x0809", m.tx().get("raw_result").asText());
            assertTrue(m.events().isEmpty());
            m.tx().get("execution_cost").forEach(v -> assertEquals(0, v.asLong()));
            assertTrue(m.tx().get("vm_error").isNull());
            assertTrue(m.tx().get("problematic_skipped").isInt());
            skipped++;
        }
        assertTrue(skipped > 0);
    }

    /** From 3.4 a post-condition abort sends no events; from 3.3 failures carry the VM's words. */
    @Test
    void abortedTransactionsOfTodaysNode() {
        int aborted = 0;
        for (Mined m : mined) {
            boolean today = m.block().has("pox_v4_unlock_height");
            if (!today || !m.tx().get("status").asText().equals("abort_by_post_condition")) {
                continue;
            }
            assertTrue(m.tx().get("vm_error").asText().startsWith("Post-condition check failure"), m.tx().toString());
            if (!m.epoch().equals("3.3")) {
                assertEquals(List.of(), m.events());
            }
            aborted++;
        }
        assertTrue(aborted > 0);
    }

    /** Bitcoin operations: raw_tx 0x00, first in their tenure's first block, with the node's JSON and events. */
    @Test
    void bitcoinOperationsAsTheNodeSendsThem() {
        Set<String> kinds = new TreeSet<>();
        for (Mined m : mined) {
            JsonNode op = m.tx().get("burnchain_op");
            if (op == null || op.isNull()) {
                continue;
            }
            assertEquals("0x00", m.tx().get("raw_tx").asText());
            assertEquals("success", m.tx().get("status").asText());
            String kind = op.fieldNames().next();
            kinds.add(kind);
            JsonNode body = op.get(kind);
            assertEquals(m.tx().get("txid").asText(), "0x" + body.get("burn_txid").asText());
            assertEquals(m.block().get("burn_block_hash").asText(), "0x" + body.get("burn_header_hash").asText());
            assertEquals(m.block().get("burn_block_height").asLong(), body.get("burn_block_height").asLong());
            JsonNode sender = body.get("sender");
            StacksAddress address = StacksAddress.parse(sender.get("address").asText());
            assertEquals(Hex.encode(address.hash160()), sender.get("address_hash_bytes").asText());
            assertEquals(address.version(), sender.get("address_version").asInt());
            int index = m.tx().get("tx_index").asInt();
            for (int i = 0; i < index; i++) {
                assertEquals("0x00", m.block().get("transactions").get(i).get("raw_tx").asText(), "operations first");
            }
            switch (kind) {
                case "transfer_stx" -> {
                    assertEquals("0x0703", m.tx().get("raw_result").asText());
                    JsonNode event = m.events().get(0).get("stx_transfer_event");
                    assertEquals(sender.get("address").asText(), event.get("sender").asText());
                    assertEquals(body.get("recipient").get("address").asText(), event.get("recipient").asText());
                    assertEquals(body.get("transfered_ustx").asLong(), event.get("amount").asLong());
                    assertEquals(body.get("memo").asText(), "0x" + event.get("memo").asText());
                }
                case "stack_stx" -> {
                    assertFalse(m.epoch().equals("4.0"), "pox-5 has no stack-stx");
                    JsonNode lock = m.events().get(0).get("stx_lock_event");
                    assertEquals("SP000000000000000000002Q6VF78.pox-4", lock.get("contract_identifier").asText());
                    assertEquals(body.get("stacked_ustx").asLong(), lock.get("locked_amount").asLong());
                    assertEquals(sender.get("address").asText(), lock.get("locked_address").asText());
                }
                case "delegate_stx" -> {
                    assertFalse(m.epoch().equals("4.0"), "pox-5 has no delegate-stx");
                    assertEquals("0x0703", m.tx().get("raw_result").asText());
                }
                default -> assertEquals("0x0703", m.tx().get("raw_result").asText());
            }
        }
        assertEquals(Set.of("delegate_stx", "stack_stx", "transfer_stx", "vote_for_aggregate_key"), kinds);
        assertTrue(summary.burnchainOperations().values().stream().mapToLong(Long::longValue).sum() >= 4);
    }

    // --- SIP-005, read by hand -------------------------------------------------------------------

    /** A transaction's header up to its payload: the post-condition mode and each condition's bytes. */
    private static final class Header {
        final int mode;
        final List<byte[]> conditions = new ArrayList<>();
        final int payloadOffset;

        Header(byte[] raw) {
            if (raw.length < 2) {
                mode = -1;
                payloadOffset = raw.length;
                return;
            }
            int i = spendingConditionEnd(raw, 6);
            if (raw[5] == 0x05) {
                i = spendingConditionEnd(raw, i);
            }
            i++; // anchor mode
            mode = raw[i++];
            int count = (int) uint(raw, i, 4);
            i += 4;
            for (int c = 0; c < count; c++) {
                int start = i;
                int type = raw[i++];
                i = principalEnd(raw, i);
                if (type == 0x01 || type == 0x02) {
                    i += 21;
                    i += 1 + raw[i];
                    i += 1 + raw[i];
                }
                if (type == 0x02) {
                    i = valueEnd(raw, i) + 1;
                } else if (type == 0x04) {
                    i += 1;
                } else {
                    i += 9;
                }
                conditions.add(java.util.Arrays.copyOfRange(raw, start, i));
            }
            payloadOffset = i;
        }
    }

    private static byte[] payload(byte[] raw) {
        Header h = new Header(raw);
        return java.util.Arrays.copyOfRange(raw, h.payloadOffset, raw.length);
    }

    private static int spendingConditionEnd(byte[] raw, int i) {
        int hashMode = raw[i];
        i += 1 + 20 + 8 + 8;
        if (hashMode == 0x00 || hashMode == 0x02) {
            return i + 1 + 65;
        }
        int fields = (int) uint(raw, i, 4);
        i += 4;
        for (int f = 0; f < fields; f++) {
            int type = raw[i++];
            i += type == 0x00 || type == 0x01 ? 33 : 65;
        }
        return i + 2;
    }

    private static int principalEnd(byte[] raw, int i) {
        int type = raw[i++];
        if (type == 0x02) {
            return i + 21;
        } else if (type == 0x03) {
            i += 21;
            return i + 1 + raw[i];
        }
        return i;
    }

    private static int valueEnd(byte[] raw, int i) {
        int type = raw[i++];
        return switch (type) {
            case 0x00, 0x01 -> i + 16;
            case 0x05 -> i + 21;
            case 0x02, 0x0d, 0x0e -> i + 4 + (int) uint(raw, i, 4);
            default -> throw new IllegalStateException("value type " + type);
        };
    }

    /** The origin's signer (key hash) and its address version by hash mode: 0x00 P2PKH (22), else 20. */
    private static byte[] signer(byte[] raw) {
        return java.util.Arrays.copyOfRange(raw, 7, 27);
    }

    private static int version(byte[] raw) {
        return raw[6] == 0x00 ? 22 : 20;
    }

    private static long uint(byte[] raw, int i, int n) {
        long v = 0;
        for (int k = 0; k < n; k++) {
            v = v << 8 | raw[i + k] & 0xff;
        }
        return v;
    }

    private static byte[] u32(int v) {
        return new byte[]{(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static byte[] u64(long v) {
        byte[] out = new byte[8];
        for (int k = 7; k >= 0; k--) {
            out[k] = (byte) v;
            v >>>= 8;
        }
        return out;
    }

    private static byte[] name(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return concat(new byte[]{(byte) bytes.length}, bytes);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

}
