package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.ClarityNames;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Writes a {@link StacksTransaction} back to its SIP-005 bytes, the inverse of {@link StacksTransaction#decode}:
 * for any decoded transaction, {@code encode(decode(raw))} equals {@code raw}. The model's {@code txId} is not
 * read, so a transaction can be built with a placeholder id and then {@link #seal sealed}.
 *
 * <p>Fixed-width fields (signer hashes, signatures, memos, hashes) must have their wire length; anything the
 * decoder would refuse is refused here as a {@link CodecException} rather than written.
 */
public final class TransactionEncoder {

    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final int AUTH_STANDARD = 0x04;
    private static final int AUTH_SPONSORED = 0x05;
    private static final int PC_STX = 0x00;
    private static final int PC_FUNGIBLE = 0x01;
    private static final int PC_NON_FUNGIBLE = 0x02;
    private static final int PC_STAKING = 0x03;
    private static final int PC_POX = 0x04;
    private static final int PC_ORIGIN = 0x01;
    private static final int PC_STANDARD = 0x02;
    private static final int PC_CONTRACT = 0x03;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

    private TransactionEncoder() {
    }

    public static byte[] encode(StacksTransaction tx) {
        TransactionEncoder encoder = new TransactionEncoder();
        encoder.transaction(tx);
        return encoder.out.toByteArray();
    }

    /** {@link #encode} as {@code 0x}-hex, the node's {@code raw_tx} form. */
    public static String encodeHex(StacksTransaction tx) {
        return Hex.encode(encode(tx));
    }

    /** The transaction with its real id: SHA-512/256 of its encoding. */
    public static StacksTransaction seal(StacksTransaction draft) {
        return new StacksTransaction(Sha512_256.txId(encode(draft)), draft.version(), draft.chainId(),
                draft.origin(), draft.sponsor(), draft.anchorMode(), draft.postConditionMode(),
                draft.postConditions(), draft.payload());
    }

    /** A microblock header whose {@code serialized} form agrees with its fields, for building poison payloads. */
    public static MicroblockHeader microblockHeader(int version, int sequence, String prevBlock,
                                                    String txMerkleRoot, String signature) {
        TransactionEncoder encoder = new TransactionEncoder();
        encoder.u8(version);
        encoder.u16(sequence);
        encoder.fixedHex(prevBlock, 32, "microblock parent hash");
        encoder.fixedHex(txMerkleRoot, 32, "microblock tx merkle root");
        encoder.fixedHex(signature, 65, "microblock signature");
        return new MicroblockHeader(version, sequence, Hex.encode(Hex.decode(prevBlock)),
                Hex.encode(Hex.decode(txMerkleRoot)), Hex.encode(Hex.decode(signature)),
                Hex.encode(encoder.out.toByteArray()));
    }

    private void transaction(StacksTransaction tx) {
        u8(tx.version().code());
        u32(tx.chainId(), "chain id");
        u8(tx.sponsor().isPresent() ? AUTH_SPONSORED : AUTH_STANDARD);
        spendingCondition(tx.origin());
        tx.sponsor().ifPresent(this::spendingCondition);
        u8(tx.anchorMode().code());
        u8(tx.postConditionMode().code());
        u32(tx.postConditions().size(), "post-condition count");
        tx.postConditions().forEach(this::postCondition);
        payload(tx.payload());
    }

    private void spendingCondition(SpendingCondition condition) {
        u8(condition.hashMode().code());
        fixedHex(condition.signer(), 20, "signer");
        u64(condition.nonce(), "nonce");
        u64(condition.fee(), "fee");
        if (condition instanceof SpendingCondition.SingleSig single) {
            if (single.hashMode().isMultiSig()) {
                throw new CodecException("single-sig condition with multi-sig hash mode " + single.hashMode());
            }
            u8(single.keyEncoding().code());
            fixedHex(single.signature(), 65, "signature");
        } else if (condition instanceof SpendingCondition.MultiSig multi) {
            if (!multi.hashMode().isMultiSig()) {
                throw new CodecException("multi-sig condition with single-sig hash mode " + multi.hashMode());
            }
            u32(multi.fields().size(), "auth field count");
            for (AuthField field : multi.fields()) {
                u8(field.type().code());
                fixedHex(field.hex(), field.type().length(), "auth field");
            }
            u16(multi.signaturesRequired());
        }
    }

    private void postCondition(PostCondition condition) {
        if (condition instanceof PostCondition.Stx stx) {
            u8(PC_STX);
            postConditionPrincipal(stx.principal());
            u8(stx.conditionCode().code());
            u64(stx.amount(), "post-condition amount");
        } else if (condition instanceof PostCondition.Fungible ft) {
            u8(PC_FUNGIBLE);
            postConditionPrincipal(ft.principal());
            assetInfo(ft.asset());
            u8(ft.conditionCode().code());
            u64(ft.amount(), "post-condition amount");
        } else if (condition instanceof PostCondition.NonFungible nft) {
            u8(PC_NON_FUNGIBLE);
            postConditionPrincipal(nft.principal());
            assetInfo(nft.asset());
            bytes(nft.assetValue().serialize());
            u8(nft.conditionCode().code());
        } else if (condition instanceof PostCondition.Staking staking) {
            u8(PC_STAKING);
            postConditionPrincipal(staking.principal());
            u8(staking.conditionCode().code());
            u64(staking.amount(), "post-condition amount");
        } else if (condition instanceof PostCondition.Pox pox) {
            u8(PC_POX);
            postConditionPrincipal(pox.principal());
            u8(pox.conditionCode().code());
        }
    }

    private void postConditionPrincipal(PostConditionPrincipal principal) {
        if (principal instanceof PostConditionPrincipal.Origin) {
            u8(PC_ORIGIN);
        } else if (principal instanceof PostConditionPrincipal.Standard standard) {
            u8(PC_STANDARD);
            address(standard.address());
        } else if (principal instanceof PostConditionPrincipal.Contract contract) {
            u8(PC_CONTRACT);
            contract(contract.contract());
        }
    }

    private void assetInfo(AssetInfo asset) {
        contract(asset.contract());
        name(asset.assetName(), "asset name");
    }

    private void payload(TransactionPayload payload) {
        u8(payload.typeId());
        if (payload instanceof TransactionPayload.TokenTransfer transfer) {
            principalValue(transfer.recipient());
            u64(transfer.amount(), "token transfer amount");
            fixedHex(transfer.memo(), 34, "memo");
        } else if (payload instanceof TransactionPayload.SmartContract deploy) {
            deploy.clarityVersion().ifPresent(this::u8);
            contractName(deploy.contractName());
            byte[] source = deploy.sourceCode().getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < deploy.sourceCode().length(); i++) {
                if (!ClarityValue.StringAscii.isAllowed(deploy.sourceCode().charAt(i))) {
                    throw new CodecException(String.format(
                            "contract source has a disallowed character 0x%02x at index %d",
                            (int) deploy.sourceCode().charAt(i), i));
                }
            }
            u32(source.length, "contract source length");
            bytes(source);
        } else if (payload instanceof TransactionPayload.ContractCall call) {
            contract(call.contract());
            name(call.functionName(), "function name");
            u32(call.functionArgs().size(), "function argument count");
            for (ClarityValue arg : call.functionArgs()) {
                bytes(arg.serialize());
            }
        } else if (payload instanceof TransactionPayload.PoisonMicroblock poison) {
            microblockHeader(poison.header1());
            microblockHeader(poison.header2());
        } else if (payload instanceof TransactionPayload.Coinbase coinbase) {
            fixedHex(coinbase.payload(), 32, "coinbase payload");
            if (coinbase.vrfProof().isPresent()) {
                Optional<Principal> recipient = coinbase.altRecipient();
                bytes((recipient.isPresent()
                        ? new ClarityValue.OptionalSome(principalClarity(recipient.get()))
                        : ClarityValue.NONE).serialize());
                fixedHex(coinbase.vrfProof().get(), 80, "VRF proof");
            } else {
                coinbase.altRecipient().ifPresent(this::principalValue);
            }
        } else if (payload instanceof TransactionPayload.TenureChange tenure) {
            fixedHex(tenure.tenureConsensusHash(), 20, "tenure consensus hash");
            fixedHex(tenure.prevTenureConsensusHash(), 20, "previous tenure consensus hash");
            fixedHex(tenure.burnViewConsensusHash(), 20, "burn view consensus hash");
            fixedHex(tenure.previousTenureEnd(), 32, "previous tenure end");
            u32(tenure.previousTenureBlocks(), "previous tenure blocks");
            u8(tenure.cause().code());
            fixedHex(tenure.pubkeyHash(), 20, "tenure change pubkey hash");
        }
    }

    /** Written from the fields, which the decoder also keeps; {@code serialized} is their derived form. */
    private void microblockHeader(MicroblockHeader header) {
        u8(header.version());
        u16(header.sequence());
        fixedHex(header.prevBlock(), 32, "microblock parent hash");
        fixedHex(header.txMerkleRoot(), 32, "microblock tx merkle root");
        fixedHex(header.signature(), 65, "microblock signature");
    }

    private static ClarityValue principalClarity(Principal principal) {
        if (principal instanceof ContractId contract) {
            return new ClarityValue.ContractPrincipal(contract);
        }
        return new ClarityValue.StandardPrincipal((StacksAddress) principal);
    }

    private void principalValue(Principal principal) {
        bytes(principalClarity(principal).serialize());
    }

    private void address(StacksAddress address) {
        u8(address.version());
        bytes(address.hash160());
    }

    private void contract(ContractId contract) {
        address(contract.address());
        contractName(contract.name());
    }

    private void contractName(String name) {
        if (!ClarityNames.isContractNameInTransaction(name)) {
            throw new CodecException("invalid contract name in a transaction '" + name + "'");
        }
        shortAscii(name);
    }

    private void name(String name, String what) {
        if (!ClarityNames.isClarityName(name)) {
            throw new CodecException("invalid " + what + " '" + name + "'");
        }
        shortAscii(name);
    }

    private void shortAscii(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        u8(bytes.length);
        bytes(bytes);
    }

    private void fixedHex(String hex, int length, String what) {
        byte[] bytes = Hex.decode(hex);
        if (bytes.length != length) {
            throw new CodecException(what + " must be " + length + " bytes, got " + bytes.length);
        }
        bytes(bytes);
    }

    private void u8(int value) {
        out.write(value);
    }

    private void u16(int value) {
        if (value < 0 || value > 0xffff) {
            throw new CodecException("u16 value " + value + " out of range");
        }
        out.write(value >>> 8);
        out.write(value);
    }

    private void u32(long value, String what) {
        if (value < 0 || value > 0xffffffffL) {
            throw new CodecException(what + " " + value + " is outside the u32 range");
        }
        out.write((int) (value >>> 24));
        out.write((int) (value >>> 16));
        out.write((int) (value >>> 8));
        out.write((int) value);
    }

    private void u64(BigInteger value, String what) {
        if (value.signum() < 0 || value.compareTo(U64_MAX) > 0) {
            throw new CodecException(what + " " + value + " is outside the u64 range");
        }
        long bits = value.longValue();
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (bits >>> shift));
        }
    }

    private void bytes(byte[] bytes) {
        out.write(bytes, 0, bytes.length);
    }
}
