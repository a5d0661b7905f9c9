package io.stacksexplorer.generate;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;

/**
 * A Stacks operation sent through Bitcoin, as a node reports it in a {@code /new_block} receipt's
 * {@code burnchain_op}: one key naming the kind, over the operation's fields. Facts from stacks-core's
 * {@code BlockstackOperationType::blockstack_op_to_json}: {@code burn_header_hash} and {@code burn_txid}
 * are bare hex (the receipt's {@code txid} is the same id with {@code 0x}), amounts are JSON numbers, a
 * Stacks address is an object of its c32 text, {@code 0x} hash bytes and version, a PoX reward address
 * is its Base58 text, keys are bare hex. A {@code pre_stx} operation only designates the sender of a
 * later one and is never executed, so no receipt (and no {@code /new_block} transaction) carries it.
 *
 * @param burnHeaderHash bare hex of the burn block that carried the operation
 * @param burnTxid       bare hex of the Bitcoin transaction
 */
record BurnchainOperation(Kind kind, long burnHeight, String burnHeaderHash, String burnTxid, int vtxindex,
                          Account sender, Account other, long amount, String memo, String rewardAddress,
                          long numCycles, String signerKey, long authId, String aggregateKey, long rewardCycle,
                          long round, long signerIndex) {

    /** The kinds a node executes as transactions, by their {@code burnchain_op} key, in the order it runs them. */
    enum Kind {
        STACK_STX("stack_stx"), TRANSFER_STX("transfer_stx"), DELEGATE_STX("delegate_stx"),
        VOTE_FOR_AGGREGATE_KEY("vote_for_aggregate_key");

        final String key;

        Kind(String key) {
            this.key = key;
        }
    }

    /** The receipt's {@code txid}. */
    String txId() {
        return "0x" + burnTxid;
    }

    void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart(kind.key);
        g.writeNumberField("burn_block_height", burnHeight);
        g.writeStringField("burn_header_hash", burnHeaderHash);
        switch (kind) {
            case TRANSFER_STX -> {
                g.writeStringField("memo", memo);
                address(g, "recipient", other);
                address(g, "sender", sender);
                // Spelled as the node spells it.
                g.writeNumberField("transfered_ustx", amount);
            }
            case STACK_STX -> {
                g.writeNumberField("num_cycles", numCycles);
                g.writeStringField("reward_addr", rewardAddress);
                address(g, "sender", sender);
                g.writeNumberField("stacked_ustx", amount);
            }
            case DELEGATE_STX -> {
                address(g, "delegate_to", other);
                g.writeNumberField("delegated_ustx", amount);
                address(g, "sender", sender);
                if (rewardAddress == null) {
                    g.writeNullField("reward_addr");
                } else {
                    // (output index, address): the node writes the pair as an array.
                    g.writeArrayFieldStart("reward_addr");
                    g.writeNumber(1);
                    g.writeString(rewardAddress);
                    g.writeEndArray();
                }
            }
            case VOTE_FOR_AGGREGATE_KEY -> {
                g.writeStringField("aggregate_key", aggregateKey);
                g.writeNumberField("reward_cycle", rewardCycle);
                g.writeNumberField("round", round);
                address(g, "sender", sender);
                g.writeNumberField("signer_index", signerIndex);
                g.writeStringField("signer_key", signerKey);
            }
        }
        g.writeStringField("burn_txid", burnTxid);
        if (kind == Kind.DELEGATE_STX) {
            g.writeNullField("until_burn_height");
        }
        g.writeNumberField("vtxindex", vtxindex);
        if (kind == Kind.STACK_STX) {
            g.writeStringField("signer_key", signerKey);
            g.writeNumberField("max_amount", amount);
            g.writeNumberField("auth_id", authId);
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void address(JsonGenerator g, String field, Account account) throws IOException {
        g.writeObjectFieldStart(field);
        g.writeStringField("address", account.id);
        g.writeStringField("address_hash_bytes", account.hash160Hex);
        g.writeNumberField("address_version", account.address.version());
        g.writeEndObject();
    }
}
