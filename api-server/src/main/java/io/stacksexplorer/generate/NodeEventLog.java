package io.stacksexplorer.generate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.TxOutcome;

import java.io.IOException;
import java.io.Writer;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * Writes node deliveries in the recorded-log TSV format (id, receipt time, path, JSON body; one per
 * line) with the JSON a stacks-node 2.x event observer posts: field names, nesting, hex and number
 * forms as in the recorded logs. Bodies are streamed straight into the writer, never built as
 * strings or trees.
 */
final class NodeEventLog {

    private static final String ZERO_HASH = "0x" + "00".repeat(32);
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            // Flushing the file on every line would cost more than building the line.
            .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
            .build();

    /**
     * A burn block as the node reports it, and as its Stacks blocks refer to it. A node of the
     * Nakamoto era also reports its consensus hash and parent; {@code consensusHash} is null for a
     * 2.x-era burn block, whose payload has neither.
     */
    record Burn(String hash, long height, long time, String parentHash, String consensusHash) {

        Burn(String hash, long height, long time) {
            this(hash, height, time, null, null);
        }
    }

    /** A transaction inside a block or microblock payload, with its microblock placement if any. */
    record Placed(GeneratedTx tx, int txIndex, String microblockHash, int microblockSequence,
                  String microblockParentHash) {
    }

    /** One matured miner reward (reported 100 blocks after the block it pays for). */
    record Reward(String recipient, long coinbase, long fees, String fromBlockHash, String fromConsensusHash) {
    }

    /** A {@code /new_block} payload; {@code nakamoto} is null for a 2.x-era block. */
    record Block(long height, String blockHash, String indexBlockHash, String parentBlockHash,
                 String parentIndexBlockHash, String parentMicroblock, int parentMicroblockSequence, Burn burn,
                 Burn parentBurn, String minerTxid, List<Placed> transactions, List<Reward> rewards,
                 Nakamoto nakamoto) {
    }

    /**
     * What a Nakamoto block's payload adds: its own time, its tenure (coinbase) height and
     * consensus hash, the miner's and the signers' signatures, and the reward cycle, with the
     * cycle's reward set on the cycle's first block.
     */
    record Nakamoto(long blockTime, long tenureHeight, String consensusHash, String minerSignature,
                    List<String> signerSignatures, String signerBitvec, long cycleNumber, RewardSet rewardSet,
                    Epoch epoch) {
    }

    /**
     * The signers of a reward cycle, as the node reports it on the cycle's first block; a pox-5 set
     * (epoch 4.0) has no reward addresses and a null threshold.
     */
    record RewardSet(List<Signer> signers, String poxThreshold, List<String> rewardedAddresses) {
    }

    /** {@code pox_v4_unlock_height}: mainnet's, which is the epoch 4.0 (pox-5) activation height. */
    static final long POX_V4_UNLOCK_HEIGHT = Epoch.E4_0.mainnetHeight;

    record Signer(long weight, String signingKey, String stackedAmount) {
    }

    private final Writer out;
    private long id;

    NodeEventLog(Writer out) {
        this.out = out;
    }

    long lines() {
        return id;
    }

    void burnBlock(long micros, Burn burn, long burnAmount) throws IOException {
        JsonGenerator g = begin(micros, "/new_burn_block");
        g.writeStartObject();
        g.writeNumberField("burn_amount", burnAmount);
        g.writeStringField("burn_block_hash", burn.hash());
        g.writeNumberField("burn_block_height", burn.height());
        if (burn.consensusHash() != null) {
            g.writeStringField("consensus_hash", burn.consensusHash());
            g.writeStringField("parent_burn_block_hash", burn.parentHash());
        }
        g.writeArrayFieldStart("reward_recipients");
        g.writeEndArray();
        g.writeArrayFieldStart("reward_slot_holders");
        g.writeEndArray();
        g.writeEndObject();
        end(g);
    }

    /** {@code /new_mempool_tx}: a JSON array of raw transactions. */
    void mempool(long micros, List<String> rawTxs) throws IOException {
        JsonGenerator g = begin(micros, "/new_mempool_tx");
        g.writeStartArray();
        for (String raw : rawTxs) {
            g.writeString(raw);
        }
        g.writeEndArray();
        end(g);
    }

    void drop(long micros, List<String> txIds, String newTxId, String reason) throws IOException {
        JsonGenerator g = begin(micros, "/drop_mempool_tx");
        g.writeStartObject();
        g.writeArrayFieldStart("dropped_txids");
        for (String txId : txIds) {
            g.writeString(txId);
        }
        g.writeEndArray();
        if (newTxId == null) {
            g.writeNullField("new_txid");
        } else {
            g.writeStringField("new_txid", newTxId);
        }
        g.writeStringField("reason", reason);
        g.writeEndObject();
        end(g);
    }

    void block(long micros, Block b, long[] poxUnlockHeights) throws IOException {
        JsonGenerator g = begin(micros, "/new_block");
        g.writeStartObject();
        ExecutionCost anchored = ExecutionCost.ZERO;
        ExecutionCost streamed = ExecutionCost.ZERO;
        for (Placed p : b.transactions()) {
            if (p.microblockHash() == null) {
                anchored = anchored.plus(p.tx().cost());
            } else {
                streamed = streamed.plus(p.tx().cost());
            }
        }
        g.writeFieldName("anchored_cost");
        cost(g, anchored);
        Nakamoto n = b.nakamoto();
        // A node of epoch 3.3 or later writes today's shape (the earlier parts keep their node's).
        boolean today = n != null && n.epoch().today();
        g.writeStringField("block_hash", b.blockHash());
        g.writeNumberField("block_height", b.height());
        if (n != null) {
            g.writeNumberField("block_time", n.blockTime());
        }
        g.writeStringField("burn_block_hash", b.burn().hash());
        g.writeNumberField("burn_block_height", b.burn().height());
        g.writeNumberField("burn_block_time", b.burn().time());
        g.writeFieldName("confirmed_microblocks_cost");
        cost(g, streamed);
        if (n != null) {
            g.writeStringField("consensus_hash", n.consensusHash());
            g.writeNumberField("cycle_number", n.cycleNumber());
        } else {
            g.writeNullField("cycle_number");
        }
        EventJson.events(g, b.transactions(), n == null || !n.epoch().atLeast(Epoch.E3_4));
        g.writeStringField("index_block_hash", b.indexBlockHash());
        g.writeArrayFieldStart("matured_miner_rewards");
        for (Reward r : b.rewards()) {
            g.writeStartObject();
            g.writeStringField("recipient", r.recipient());
            g.writeStringField("coinbase_amount", Long.toString(r.coinbase()));
            g.writeStringField("tx_fees_anchored", Long.toString(r.fees()));
            g.writeStringField("from_stacks_block_hash", r.fromBlockHash());
            g.writeStringField("from_index_consensus_hash", r.fromConsensusHash());
            g.writeStringField("tx_fees_streamed_produced", "0");
            g.writeStringField("tx_fees_streamed_confirmed", "0");
            g.writeEndObject();
        }
        g.writeEndArray();
        if (n != null) {
            g.writeStringField("miner_signature", n.minerSignature());
        }
        g.writeStringField("miner_txid", b.minerTxid());
        g.writeStringField("parent_block_hash", b.parentBlockHash());
        g.writeStringField("parent_burn_block_hash", b.parentBurn().hash());
        g.writeNumberField("parent_burn_block_height", b.parentBurn().height());
        g.writeNumberField("parent_burn_block_timestamp", b.parentBurn().time());
        g.writeStringField("parent_index_block_hash", b.parentIndexBlockHash());
        g.writeStringField("parent_microblock", b.parentMicroblock() == null ? ZERO_HASH : b.parentMicroblock());
        g.writeNumberField("parent_microblock_sequence", b.parentMicroblockSequence());
        g.writeNumberField("pox_v1_unlock_height", poxUnlockHeights[0]);
        g.writeNumberField("pox_v2_unlock_height", poxUnlockHeights[1]);
        g.writeNumberField("pox_v3_unlock_height", poxUnlockHeights[2]);
        if (today) {
            g.writeNumberField("pox_v4_unlock_height", POX_V4_UNLOCK_HEIGHT);
        }
        if (n == null) {
            g.writeNullField("reward_set");
            g.writeNullField("signer_bitvec");
        } else {
            rewardSet(g, n.rewardSet());
            g.writeStringField("signer_bitvec", n.signerBitvec());
            g.writeArrayFieldStart("signer_signature");
            for (String signature : n.signerSignatures()) {
                g.writeString(signature);
            }
            g.writeEndArray();
            // The node's signer signature hash of a Nakamoto block is its block hash.
            g.writeStringField("signer_signature_hash", b.blockHash());
            g.writeNumberField("tenure_height", n.tenureHeight());
        }
        transactions(g, b.transactions(), n != null, false, today);
        g.writeEndObject();
        end(g);
    }

    /** {@code /new_microblocks}: a stream (or part of one) on top of an anchored block. */
    void microblocks(long micros, String parentIndexBlockHash, Burn burn, List<Placed> txs) throws IOException {
        JsonGenerator g = begin(micros, "/new_microblocks");
        g.writeStartObject();
        g.writeStringField("burn_block_hash", burn.hash());
        g.writeNumberField("burn_block_height", burn.height());
        g.writeNumberField("burn_block_timestamp", burn.time());
        EventJson.events(g, txs, true);
        g.writeStringField("parent_index_block_hash", parentIndexBlockHash);
        transactions(g, txs, false, true, false);
        g.writeEndObject();
        end(g);
    }

    // ------------------------------------------------------------------------------------------

    private static void rewardSet(JsonGenerator g, RewardSet set) throws IOException {
        if (set == null) {
            g.writeNullField("reward_set");
            return;
        }
        g.writeObjectFieldStart("reward_set");
        if (set.poxThreshold() == null) {
            g.writeNullField("pox_ustx_threshold");
        } else {
            g.writeStringField("pox_ustx_threshold", set.poxThreshold());
        }
        g.writeArrayFieldStart("rewarded_addresses");
        for (String address : set.rewardedAddresses()) {
            g.writeString(address);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("signers");
        for (Signer s : set.signers()) {
            g.writeStartObject();
            g.writeStringField("signing_key", s.signingKey());
            g.writeStringField("stacked_amt", s.stackedAmount());
            g.writeNumberField("weight", s.weight());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectFieldStart("start_cycle_state");
        g.writeArrayFieldStart("missed_reward_slots");
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * The transactions of a block or stream. A Nakamoto-era node names the deployment's interface
     * {@code contract_interface} (2.x nodes: {@code contract_abi}) and adds {@code vm_error}; {@code today}'s
     * node words the VM error of a failed transaction there, and marks a transaction the signers skipped
     * with {@code problematic_skipped} (the marker's category).
     */
    private void transactions(JsonGenerator g, List<Placed> txs, boolean nakamoto, boolean microblocks,
                              boolean today) throws IOException {
        g.writeArrayFieldStart("transactions");
        for (Placed p : txs) {
            GeneratedTx tx = p.tx();
            boolean inStream = microblocks;
            g.writeStartObject();
            g.writeStringField("txid", tx.txId());
            g.writeStringField("raw_tx", tx.rawTx());
            g.writeStringField("status", tx.status().apiName());
            g.writeNumberField("tx_index", p.txIndex());
            g.writeStringField("raw_result", tx.rawResult());
            if (tx.isBurnchainOperation()) {
                g.writeFieldName("burnchain_op");
                tx.extra().burnchainOp().write(g);
            } else if (!inStream) {
                // The node writes no burnchain_op key for a microblock's transactions.
                g.writeNullField("burnchain_op");
            }
            g.writeFieldName(nakamoto ? "contract_interface" : "contract_abi");
            if (tx.contractAbi() == null) {
                g.writeNull();
            } else {
                g.writeRawValue(tx.contractAbi());
            }
            g.writeFieldName("execution_cost");
            cost(g, tx.cost());
            if (p.microblockHash() == null) {
                g.writeNullField("microblock_hash");
                g.writeNullField("microblock_sequence");
                g.writeNullField("microblock_parent_hash");
            } else {
                g.writeStringField("microblock_hash", p.microblockHash());
                g.writeNumberField("microblock_sequence", p.microblockSequence());
                g.writeStringField("microblock_parent_hash", p.microblockParentHash());
            }
            if (today && tx.extra().vmError() != null) {
                g.writeStringField("vm_error", tx.extra().vmError());
            } else if (nakamoto) {
                g.writeNullField("vm_error");
            }
            if (tx.status() == TxOutcome.PROBLEMATIC_SKIPPED) {
                g.writeNumberField("problematic_skipped", 0);
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void cost(JsonGenerator g, ExecutionCost c) throws IOException {
        g.writeStartObject();
        g.writeNumberField("read_count", c.readCount());
        g.writeNumberField("read_length", c.readLength());
        g.writeNumberField("runtime", c.runtime());
        g.writeNumberField("write_count", c.writeCount());
        g.writeNumberField("write_length", c.writeLength());
        g.writeEndObject();
    }

    private JsonGenerator begin(long micros, String path) throws IOException {
        out.write(Long.toString(++id));
        out.write('\t');
        out.write(timestamp(micros));
        out.write('\t');
        out.write(path);
        out.write('\t');
        return JSON.createGenerator(out);
    }

    private void end(JsonGenerator g) throws IOException {
        g.close();
        out.write('\n');
    }

    /** The recorded logs' receipt time form: {@code 2021-07-28 22:04:25.107736+00}. */
    static String timestamp(long micros) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), 0, ZoneOffset.UTC);
        return String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d:%02d.%06d+00", t.getYear(), t.getMonthValue(),
                t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond(), Math.floorMod(micros, 1_000_000L));
    }
}
