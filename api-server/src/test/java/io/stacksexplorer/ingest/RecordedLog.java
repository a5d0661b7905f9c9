package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a recorded event log says, computed independently of the write path: blocks, the chain the
 * node settled on (a block becomes the tip only when higher than the tip before it), transactions
 * with their status and contract logs.
 */
final class RecordedLog {

    record Line(String path, String body) {
    }

    record Block(JsonNode json, String indexBlockHash, String parent, long height) {
    }

    final Path file;
    final List<Line> lines = new ArrayList<>();
    final Map<String, Block> blocks = new LinkedHashMap<>();
    final List<String> canonicalChain = new ArrayList<>();
    /** Unconfirmed microblock transactions on top of the tip: tx id → microblock payload tx. */
    final Map<String, JsonNode> unanchoredOnTip = new LinkedHashMap<>();
    final Set<String> allTxIds = new LinkedHashSet<>();
    Block tip;
    /** The genesis block (height 0) whose content is served as part of block 1, when the log has one. */
    Block genesis;

    RecordedLog(Path file) throws IOException {
        this.file = file;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            String[] c = line.split("\t", 4);
            lines.add(new Line(c[2], c[3]));
        }
        List<JsonNode> microblocks = new ArrayList<>();
        for (Line line : lines) {
            JsonNode body = IngestServer.JSON.readTree(line.body());
            if (line.path().equals("/new_block")) {
                Block b = new Block(body, body.get("index_block_hash").asText(),
                        body.get("parent_index_block_hash").asText(), body.get("block_height").asLong());
                blocks.putIfAbsent(b.indexBlockHash(), b);
                if (tip == null || b.height() > tip.height()) {
                    tip = b;
                }
                body.get("transactions").forEach(tx -> allTxIds.add(tx.get("txid").asText()));
            } else if (line.path().equals("/new_microblocks")) {
                microblocks.add(body);
                body.get("transactions").forEach(tx -> allTxIds.add(tx.get("txid").asText()));
            }
        }
        for (Block b = tip; b != null; b = blocks.get(b.parent())) {
            if (b.height() > 0) {
                canonicalChain.add(0, b.indexBlockHash());
            }
        }
        // Block 0 is never served; its content is served as part of block 1: the block 0 that block 1
        // builds on, else the last one delivered (GenesisBlock).
        Block blockOne = canonicalChain.isEmpty() ? null : blocks.get(canonicalChain.get(0));
        for (Block b : blocks.values()) {
            if (b.height() == 0 && (genesis == null || blockOne == null
                    || !genesis.indexBlockHash().equals(blockOne.parent()))) {
                genesis = b;
            }
        }
        Set<String> confirmedMicroblocks = new java.util.HashSet<>();
        for (Block b : blocks.values()) {
            b.json().get("transactions").forEach(tx -> {
                if (tx.hasNonNull("microblock_hash")) {
                    confirmedMicroblocks.add(tx.get("microblock_hash").asText());
                }
            });
        }
        for (JsonNode mb : microblocks) {
            if (tip != null && mb.get("parent_index_block_hash").asText().equals(tip.indexBlockHash())) {
                for (JsonNode tx : mb.get("transactions")) {
                    if (!confirmedMicroblocks.contains(tx.get("microblock_hash").asText())) {
                        unanchoredOnTip.put(tx.get("txid").asText(), tx);
                    }
                }
            }
        }
    }

    static List<Path> all(Path folder) throws IOException {
        try (Stream<Path> listing = Files.list(folder)) {
            return listing.filter(p -> p.toString().endsWith(".tsv")).sorted().toList();
        }
    }

    String name() {
        return file.getFileName().toString().replace(".tsv", "");
    }

    /** Canonical-chain transactions: tx id → the payload tx (last canonical occurrence). */
    Map<String, JsonNode> canonicalTransactions() {
        Map<String, JsonNode> txs = new LinkedHashMap<>();
        for (String hash : canonicalChain) {
            served(blocks.get(hash), "transactions").forEach(tx -> txs.put(tx.get("txid").asText(), tx));
        }
        return txs;
    }

    /** A payload array of a block as served: block 1's includes the genesis block's. */
    List<JsonNode> served(Block block, String array) {
        List<JsonNode> items = new ArrayList<>();
        if (block.height() == 1 && genesis != null) {
            genesis.json().get(array).forEach(items::add);
        }
        block.json().get(array).forEach(items::add);
        return items;
    }

    /** Committed contract logs of canonical-chain blocks: contract id → (tx id + value hex). */
    Map<String, List<String>> canonicalContractLogs() {
        Map<String, List<String>> logs = new HashMap<>();
        for (String hash : canonicalChain) {
            for (JsonNode e : served(blocks.get(hash), "events")) {
                if (e.get("type").asText().equals("contract_event") && e.path("committed").asBoolean(true)) {
                    JsonNode d = e.get("contract_event");
                    logs.computeIfAbsent(d.get("contract_identifier").asText(), k -> new ArrayList<>())
                            .add(e.get("txid").asText() + " " + d.get("raw_value").asText());
                }
            }
        }
        return logs;
    }

    /** The chain id the log's transactions were signed for (version byte 0x00 mainnet, 0x80 testnet). */
    String chainId() {
        for (Block b : blocks.values()) {
            for (JsonNode tx : b.json().get("transactions")) {
                String raw = tx.get("raw_tx").asText();
                if (raw.length() > 4) {
                    return raw.startsWith("0x80") ? "0x80000000" : "0x00000001";
                }
            }
        }
        return "0x00000001";
    }
}
