package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.ByteReader;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import java.math.BigInteger;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A decoded Stacks transaction (SIP-005 wire format, with the epoch 2.1 and Nakamoto payloads).
 *
 * @param txId     SHA-512/256 of the raw bytes, {@code 0x}-hex
 * @param chainId  unsigned 32-bit chain id
 * @param sponsor  present exactly when the authorization is sponsored
 */
public record StacksTransaction(String txId, TransactionVersion version, long chainId, SpendingCondition origin,
                                Optional<SpendingCondition> sponsor, AnchorMode anchorMode,
                                PostConditionMode postConditionMode, List<PostCondition> postConditions,
                                TransactionPayload payload) {

    private static final int AUTH_STANDARD = 0x04;
    private static final int AUTH_SPONSORED = 0x05;

    public StacksTransaction {
        Objects.requireNonNull(txId, "txId");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(sponsor, "sponsor");
        Objects.requireNonNull(anchorMode, "anchorMode");
        Objects.requireNonNull(postConditionMode, "postConditionMode");
        Objects.requireNonNull(payload, "payload");
        postConditions = List.copyOf(postConditions);
    }

    /** Decodes one whole transaction; trailing bytes are an error. */
    public static StacksTransaction decode(byte[] raw) {
        ByteReader reader = new ByteReader(raw);
        TransactionVersion version = TransactionVersion.fromCode(reader.u8("transaction version"), 0);
        long chainId = reader.u32("chain id");
        int authAt = reader.offset();
        int authType = reader.u8("authorization type");
        if (authType != AUTH_STANDARD && authType != AUTH_SPONSORED) {
            throw CodecException.at(authAt, "unknown authorization type " + authType);
        }
        SpendingCondition origin = SpendingConditionDecoder.read(reader, "origin");
        Optional<SpendingCondition> sponsor = authType == AUTH_SPONSORED
                ? Optional.of(SpendingConditionDecoder.read(reader, "sponsor"))
                : Optional.empty();
        int anchorAt = reader.offset();
        AnchorMode anchorMode = AnchorMode.fromCode(reader.u8("anchor mode"), anchorAt);
        int modeAt = reader.offset();
        PostConditionMode mode = PostConditionMode.fromCode(reader.u8("post-condition mode"), modeAt);
        List<PostCondition> postConditions = PostConditionDecoder.readAll(reader);
        TransactionPayload payload = PayloadDecoder.read(reader);
        reader.expectEnd("transaction payload");
        return new StacksTransaction(Sha512_256.txId(raw), version, chainId, origin, sponsor, anchorMode, mode,
                postConditions, payload);
    }

    /** {@link #decode(byte[])} of hex such as the node's {@code raw_tx}. */
    public static StacksTransaction decodeHex(String hex) {
        return decode(Hex.decode(hex));
    }

    public boolean isMainnet() {
        return version == TransactionVersion.MAINNET;
    }

    public boolean isSponsored() {
        return sponsor.isPresent();
    }

    /** The origin account, with the address version its hash mode and the transaction version imply. */
    public StacksAddress senderAddress() {
        return origin.address(version);
    }

    public Optional<StacksAddress> sponsorAddress() {
        return sponsor.map(condition -> condition.address(version));
    }

    /** The origin's nonce. */
    public BigInteger nonce() {
        return origin.nonce();
    }

    public Optional<BigInteger> sponsorNonce() {
        return sponsor.map(SpendingCondition::nonce);
    }

    /** The fee actually offered: the sponsor's when sponsored (the origin then offers zero), else the origin's. */
    public BigInteger fee() {
        return sponsor.orElse(origin).fee();
    }

    /** For a deploy, the new contract's id (sender address + name). */
    public Optional<ContractId> smartContractId() {
        if (payload instanceof TransactionPayload.SmartContract deploy) {
            return Optional.of(new ContractId(senderAddress(), deploy.contractName()));
        }
        return Optional.empty();
    }
}
