package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.address.BitcoinAddress;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.HashMode;
import io.stacksexplorer.codec.tx.KeyEncoding;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.SpendingCondition;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionEncoder;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.codec.tx.TransactionVersion;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.HeldTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

import static io.stacksexplorer.ingest.NodePayloads.hash;
import static io.stacksexplorer.ingest.NodePayloads.normalizeHex;
import static io.stacksexplorer.ingest.NodePayloads.number;
import static io.stacksexplorer.ingest.NodePayloads.text;

/**
 * Bitcoin-originated operations (sent through Bitcoin, executed by the Stacks chain) as the
 * transactions the peer serves for them. A node delivers each in its block as a receipt with
 * {@code raw_tx} "0x00" and a {@code burnchain_op} object; there is no Stacks transaction to decode,
 * so this builds the one the operation stands for, unsigned ({@link SpendingCondition.SingleSig#UNSIGNED}),
 * with the operation's sender, nonce 0, fee 0, mode allow, no post conditions and anchor mode any, and
 * stores it as the row's raw bytes: every read path then serves it like any transaction, under the
 * node's {@code txid}.
 *
 * <ul>
 *   <li>{@code transfer_stx}: a {@code token_transfer} of {@code transfered_ustx} to the recipient (the
 *   peer serves its memo as {@code 0x}, and so do we: the operation's memo, up to 61 bytes, does not fit
 *   a transfer's 34);</li>
 *   <li>{@code stack_stx}: a {@code contract_call} of {@code pox-4}'s {@code stack-stx} with the peer's
 *   eight arguments (amount, reward address as PoX tuple, the operation's burn height, cycles,
 *   {@code none}, signer key, max amount, auth id); without a signer key (an operation sent before
 *   pox-4) the first four, to {@code pox-4} as well (the peer names the contract its lock event names);</li>
 *   <li>{@code delegate_stx}: {@code delegate-stx} (amount, delegate, optional until height, optional
 *   reward address; {@code none} where the operation has none, where the peer fails);</li>
 *   <li>{@code vote_for_aggregate_key}: {@code signers-voting}'s {@code vote-for-aggregate-public-key}
 *   (signer index, key, round, cycle); the peer refuses the whole block with a 500 here.</li>
 * </ul>
 * Unlike the peer, an operation that failed (no events) is served too, with its status. An operation
 * this build does not know is held ({@link HeldTransaction}), never refused.
 */
final class BurnchainOperations {

    private static final String MAINNET_BOOT = "SP000000000000000000002Q6VF78";
    private static final String TESTNET_BOOT = "ST000000000000000000002AMW42H";

    private BurnchainOperations() {
    }

    static NodeTransactions.Receipt receipt(JsonNode tx, NodeTransactions.Events events, String where) {
        String txId = hash(tx, "txid");
        int txIndex = (int) number(tx, "tx_index");
        String status = text(tx, "status");
        JsonNode op = tx.get("burnchain_op");
        String kind = op.fieldNames().hasNext() ? op.fieldNames().next() : "";
        TxOutcome outcome = TxOutcome.fromNodeOrNull(status);
        StacksTransaction built;
        try {
            built = build(kind, op.get(kind));
        } catch (CodecException | IllegalArgumentException | ArithmeticException | NullPointerException e) {
            return NodeTransactions.hold(new HeldTransaction(txId, txIndex, status,
                    "burnchain_op " + kind + ": " + e.getMessage(), -1), where);
        }
        if (outcome == null) {
            return NodeTransactions.hold(new HeldTransaction(txId, txIndex, status, "unknown transaction status "
                    + status, -1), where);
        }
        String rawResult = normalizeHex(text(tx, "raw_result"), "raw_result");
        return new NodeTransactions.Receipt(new NewTransaction(txId, TransactionEncoder.encodeHex(built), txIndex, outcome,
                rawResult, NodeTransactions.cost(tx), null, 0, null, null, events.byTx().getOrDefault(txId, List.of()),
                CodecTxDecoder.facts(built)), null);
    }

    private static StacksTransaction build(String kind, JsonNode op) {
        JsonNode sender = op.get("sender");
        int version = sender.get("address_version").asInt();
        boolean mainnet = version == StacksAddress.MAINNET_SINGLE_SIG || version == StacksAddress.MAINNET_MULTI_SIG;
        String boot = mainnet ? MAINNET_BOOT : TESTNET_BOOT;
        TransactionPayload payload = switch (kind) {
            case "transfer_stx" -> new TransactionPayload.TokenTransfer(address(op.get("recipient")),
                    amount(op, "transfered_ustx"), "0x" + "00".repeat(34));
            case "stack_stx" -> stackStx(op, boot);
            case "delegate_stx" -> call(boot + ".pox-4", "delegate-stx", List.of(uint(amount(op, "delegated_ustx")),
                    new ClarityValue.StandardPrincipal(address(op.get("delegate_to"))),
                    optional(op.get("until_burn_height"), h -> uint(h.bigIntegerValue())),
                    optional(op.get("reward_addr"), r -> poxAddress(r.get(1).asText()))));
            case "vote_for_aggregate_key" -> call(boot + ".signers-voting", "vote-for-aggregate-public-key", List.of(
                    uint(amount(op, "signer_index")), buffer(op.get("aggregate_key").asText()),
                    uint(amount(op, "round")), uint(amount(op, "reward_cycle"))));
            default -> throw new IllegalArgumentException("an operation this build does not know");
        };
        HashMode mode = version == StacksAddress.MAINNET_SINGLE_SIG || version == StacksAddress.TESTNET_SINGLE_SIG
                ? HashMode.P2PKH : HashMode.P2WPKH;
        String signer = normalizeHex(sender.get("address_hash_bytes").asText(), "address_hash_bytes");
        SpendingCondition origin = new SpendingCondition.SingleSig(mode, signer, BigInteger.ZERO, BigInteger.ZERO,
                KeyEncoding.COMPRESSED, SpendingCondition.SingleSig.UNSIGNED);
        StacksTransaction built = TransactionEncoder.seal(new StacksTransaction("0x",
                mainnet ? TransactionVersion.MAINNET : TransactionVersion.TESTNET, mainnet ? 0x00000001L : 0x80000000L,
                origin, Optional.empty(), AnchorMode.ANY, PostConditionMode.ALLOW, List.of(), payload));
        if (!built.senderAddress().toString().equals(sender.get("address").asText())) {
            throw new IllegalArgumentException("sender " + sender.get("address").asText() + " is not version "
                    + version + " of " + signer);
        }
        return built;
    }

    private static TransactionPayload stackStx(JsonNode op, String boot) {
        List<ClarityValue> head = List.of(uint(amount(op, "stacked_ustx")), poxAddress(op.get("reward_addr").asText()),
                uint(amount(op, "burn_block_height")), uint(amount(op, "num_cycles")));
        JsonNode signerKey = op.get("signer_key");
        if (signerKey == null || signerKey.isNull()) {
            return call(boot + ".pox-4", "stack-stx", head);
        }
        return call(boot + ".pox-4", "stack-stx", List.of(head.get(0), head.get(1), head.get(2), head.get(3),
                new ClarityValue.OptionalNone(), buffer(signerKey.asText()), uint(amount(op, "max_amount")),
                uint(amount(op, "auth_id"))));
    }

    private static TransactionPayload call(String contract, String function, List<ClarityValue> args) {
        return new TransactionPayload.ContractCall(ContractId.parse(contract), function, args);
    }

    private static StacksAddress address(JsonNode principal) {
        return StacksAddress.parse(principal.get("address").asText());
    }

    /** A number the node writes exactly, however large (u128 amounts). */
    private static BigInteger amount(JsonNode op, String field) {
        JsonNode node = op.get(field);
        return node.isTextual() ? new BigInteger(node.asText()) : node.bigIntegerValue();
    }

    private static ClarityValue uint(BigInteger value) {
        return new ClarityValue.UInt(value);
    }

    private static ClarityValue buffer(String hex) {
        return new ClarityValue.Buffer(Hex.decode(hex.startsWith("0x") ? hex : "0x" + hex));
    }

    private static ClarityValue optional(JsonNode node, java.util.function.Function<JsonNode, ClarityValue> some) {
        return node == null || node.isNull() ? new ClarityValue.OptionalNone() : new ClarityValue.OptionalSome(some.apply(node));
    }

    /** The reward address as pox-4's {@code {hashbytes, version}} tuple. */
    private static ClarityValue poxAddress(String bitcoinAddress) {
        BitcoinAddress address = BitcoinAddress.parse(bitcoinAddress);
        return ClarityValue.Tuple.sorted("hashbytes", new ClarityValue.Buffer(address.hashBytes()),
                "version", new ClarityValue.Buffer(new byte[] {(byte) address.version()}));
    }

    /** Whether a receipt stands for a Bitcoin-originated operation rather than a Stacks transaction. */
    static boolean isOperation(JsonNode tx) {
        JsonNode op = tx.get("burnchain_op");
        return NodePayloads.BURNCHAIN_OP_RAW_TX.equals(tx.path("raw_tx").asText()) && op != null && op.isObject();
    }
}
