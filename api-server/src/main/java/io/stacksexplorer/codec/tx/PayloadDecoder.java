package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.ByteReader;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.clarity.ClarityValue;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Reads the payload, the last part of a transaction, as stacks-core's {@code TransactionPayload} does. */
final class PayloadDecoder {

    private static final int MEMO_LENGTH = 34;
    private static final int COINBASE_LENGTH = 32;
    private static final int VRF_PROOF_LENGTH = 80;
    private static final int CONSENSUS_HASH_LENGTH = 20;
    private static final int BLOCK_ID_LENGTH = 32;
    private static final int HASH160_LENGTH = 20;
    /**
     * Clarity 1..6 exist (5 from epoch 3.4, 6 from 4.0); a later version byte is data: the payload's layout
     * does not depend on it, so a deploy of a future Clarity version is read and served with its number.
     * Only 0, which no stacks-core version ever wrote, is refused.
     */
    private static final int MIN_CLARITY_VERSION = 1;

    private PayloadDecoder() {
    }

    static TransactionPayload read(ByteReader reader) {
        int at = reader.offset();
        int type = reader.u8("payload type");
        return switch (type) {
            case TransactionPayload.TOKEN_TRANSFER -> tokenTransfer(reader);
            case TransactionPayload.SMART_CONTRACT -> smartContract(reader, OptionalInt.empty());
            case TransactionPayload.VERSIONED_SMART_CONTRACT -> versionedSmartContract(reader);
            case TransactionPayload.CONTRACT_CALL -> contractCall(reader);
            case TransactionPayload.POISON_MICROBLOCK -> new TransactionPayload.PoisonMicroblock(
                    microblockHeader(reader, "first"), microblockHeader(reader, "second"));
            case TransactionPayload.COINBASE -> new TransactionPayload.Coinbase(
                    coinbasePayload(reader), Optional.empty(), Optional.empty());
            case TransactionPayload.COINBASE_TO_ALT_RECIPIENT -> new TransactionPayload.Coinbase(
                    coinbasePayload(reader), Optional.of(WireFields.principalValue(reader, "coinbase recipient")),
                    Optional.empty());
            case TransactionPayload.NAKAMOTO_COINBASE -> nakamotoCoinbase(reader);
            case TransactionPayload.TENURE_CHANGE -> tenureChange(reader);
            default -> throw CodecException.at(at, "unknown transaction payload type " + type);
        };
    }

    private static TransactionPayload tokenTransfer(ByteReader reader) {
        Principal recipient = WireFields.principalValue(reader, "token transfer recipient");
        BigInteger amount = reader.u64("token transfer amount");
        String memo = WireFields.hex(reader, MEMO_LENGTH, "token transfer memo");
        return new TransactionPayload.TokenTransfer(recipient, amount, memo);
    }

    private static TransactionPayload versionedSmartContract(ByteReader reader) {
        int at = reader.offset();
        int version = reader.u8("Clarity version");
        if (version < MIN_CLARITY_VERSION) {
            throw CodecException.at(at, "unknown Clarity version " + version);
        }
        return smartContract(reader, OptionalInt.of(version));
    }

    private static TransactionPayload smartContract(ByteReader reader, OptionalInt clarityVersion) {
        String name = WireFields.contractName(reader, "smart contract name");
        int at = reader.offset();
        int length = reader.checkedLength(reader.u32("contract source length"), "contract source length", at);
        byte[] source = reader.bytes(length, "contract source");
        for (int i = 0; i < source.length; i++) {
            // stacks-core StacksString: printable ASCII plus whitespace only.
            if (!ClarityValue.StringAscii.isAllowed(source[i] & 0xff)) {
                throw CodecException.at(at + 4 + i,
                        String.format("contract source has a disallowed byte 0x%02x", source[i] & 0xff));
            }
        }
        return new TransactionPayload.SmartContract(name, new String(source, StandardCharsets.US_ASCII),
                clarityVersion);
    }

    private static TransactionPayload contractCall(ByteReader reader) {
        ContractId contract = WireFields.contract(reader, "called contract");
        String function = WireFields.clarityName(reader, "function name");
        int at = reader.offset();
        int count = reader.checkedLength(reader.u32("function argument count"), "function argument count", at);
        List<ClarityValue> args = new ArrayList<>(Math.min(count, 64));
        for (int i = 0; i < count; i++) {
            args.add(ClarityValue.read(reader));
        }
        return new TransactionPayload.ContractCall(contract, function, args);
    }

    private static MicroblockHeader microblockHeader(ByteReader reader, String which) {
        int start = reader.offset();
        int version = reader.u8(which + " microblock header version");
        int sequence = reader.u16(which + " microblock header sequence");
        String prevBlock = WireFields.hex(reader, 32, which + " microblock header parent hash");
        String merkleRoot = WireFields.hex(reader, 32, which + " microblock header tx merkle root");
        String signature = WireFields.hex(reader, 65, which + " microblock header signature");
        String serialized = Hex.encode(reader.slice(start, reader.offset()));
        return new MicroblockHeader(version, sequence, prevBlock, merkleRoot, signature, serialized);
    }

    private static String coinbasePayload(ByteReader reader) {
        return WireFields.hex(reader, COINBASE_LENGTH, "coinbase payload");
    }

    /** The recipient travels as a Clarity optional principal: 0x09, or 0x0a then a principal value. */
    private static TransactionPayload nakamotoCoinbase(ByteReader reader) {
        String payload = coinbasePayload(reader);
        int at = reader.offset();
        ClarityValue recipient = ClarityValue.read(reader);
        Optional<Principal> altRecipient;
        if (recipient instanceof ClarityValue.OptionalNone) {
            altRecipient = Optional.empty();
        } else if (recipient instanceof ClarityValue.OptionalSome some
                && some.value() instanceof ClarityValue.StandardPrincipal standard) {
            altRecipient = Optional.of(standard.address());
        } else if (recipient instanceof ClarityValue.OptionalSome some
                && some.value() instanceof ClarityValue.ContractPrincipal contract) {
            altRecipient = Optional.of(contract.contract());
        } else {
            throw CodecException.at(at, "Nakamoto coinbase recipient must be an optional principal, found "
                    + recipient.repr());
        }
        String vrfProof = WireFields.hex(reader, VRF_PROOF_LENGTH, "VRF proof");
        return new TransactionPayload.Coinbase(payload, altRecipient, Optional.of(vrfProof));
    }

    private static TransactionPayload tenureChange(ByteReader reader) {
        String tenure = WireFields.hex(reader, CONSENSUS_HASH_LENGTH, "tenure consensus hash");
        String previousTenure = WireFields.hex(reader, CONSENSUS_HASH_LENGTH, "previous tenure consensus hash");
        String burnView = WireFields.hex(reader, CONSENSUS_HASH_LENGTH, "burn view consensus hash");
        String previousEnd = WireFields.hex(reader, BLOCK_ID_LENGTH, "previous tenure end");
        long previousBlocks = reader.u32("previous tenure blocks");
        int causeAt = reader.offset();
        TenureChangeCause cause = TenureChangeCause.fromCode(reader.u8("tenure change cause"), causeAt);
        String pubkeyHash = WireFields.hex(reader, HASH160_LENGTH, "tenure change pubkey hash");
        return new TransactionPayload.TenureChange(tenure, previousTenure, burnView, previousEnd, previousBlocks,
                cause, pubkeyHash);
    }
}
