package io.stacksexplorer.codec.tx;

import static io.stacksexplorer.codec.WireBuilder.wire;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.WireBuilder;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StacksTransactionTest {

    /** hash160 of SPBQKNWAK9MBRRCH3WDYC5V9C3RP9WYV903N7QPT. */
    private static final String SIGNER = "1779d78a9a68bc61911f1be6176960f164f3db48";
    /** hash160 of SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7 (stacks-core's c32 test vector). */
    private static final String OTHER = "a46ff88886c2ef9762d970b4d2c63678835bd39d";
    private static final String ZERO_HASH = "0000000000000000000000000000000000000000";

    private static final int MAINNET = 0x00;
    private static final int TESTNET = 0x80;

    private static WireBuilder header(int version, long chainId, int authType) {
        return wire().u8(version).u32(chainId).u8(authType);
    }

    private static WireBuilder singleSig(WireBuilder w, int hashMode, String signer, long nonce, long fee) {
        return w.u8(hashMode).hex(signer).u64(nonce).u64(fee).u8(0x00).fill(65, 0x11);
    }

    private static WireBuilder noPostConditions(WireBuilder w, int anchorMode) {
        return w.u8(anchorMode).u8(0x02).u32(0);
    }

    /** A plain mainnet STX transfer: 180 bytes, the most common transaction on chain. */
    private static byte[] tokenTransfer() {
        WireBuilder w = singleSig(header(MAINNET, 1, 0x04), 0x00, SIGNER, 5, 180);
        return noPostConditions(w, 0x03)
                .u8(0x00).u8(0x05).u8(22).hex(OTHER).u64(1_000_000)
                .bytes("hello".getBytes(StandardCharsets.US_ASCII)).fill(29, 0)
                .build();
    }

    @Test
    void decodesATokenTransfer() {
        byte[] raw = tokenTransfer();
        assertEquals(180, raw.length);
        StacksTransaction tx = StacksTransaction.decode(raw);

        // Computed independently with Python's hashlib.new("sha512_256").
        assertEquals("0x5787bf521e9348eb732056a488ebe47d5a38fbbc89ecb17359aaf6769893d678", tx.txId());
        assertEquals(Sha512_256.txId(raw), tx.txId());
        assertEquals(TransactionVersion.MAINNET, tx.version());
        assertTrue(tx.isMainnet());
        assertEquals(1L, tx.chainId());
        assertEquals("SPBQKNWAK9MBRRCH3WDYC5V9C3RP9WYV903N7QPT", tx.senderAddress().toString());
        assertFalse(tx.isSponsored());
        assertEquals(Optional.empty(), tx.sponsorAddress());
        assertEquals(Optional.empty(), tx.sponsorNonce());
        assertEquals(BigInteger.valueOf(5), tx.nonce());
        assertEquals(BigInteger.valueOf(180), tx.fee());
        assertEquals("any", tx.anchorMode().apiName());
        assertEquals("deny", tx.postConditionMode().apiName());
        assertEquals(List.of(), tx.postConditions());

        SpendingCondition.SingleSig origin = assertInstanceOf(SpendingCondition.SingleSig.class, tx.origin());
        assertEquals(HashMode.P2PKH, origin.hashMode());
        assertEquals("0x" + SIGNER, origin.signer());
        assertEquals(KeyEncoding.COMPRESSED, origin.keyEncoding());
        assertEquals("0x" + "11".repeat(65), origin.signature());

        TransactionPayload.TokenTransfer transfer =
                assertInstanceOf(TransactionPayload.TokenTransfer.class, tx.payload());
        assertEquals("token_transfer", transfer.txType());
        assertEquals("SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7", transfer.recipientAddress());
        assertEquals(BigInteger.valueOf(1_000_000), transfer.amount());
        assertEquals("0x68656c6c6f" + "00".repeat(29), transfer.memo());
        assertEquals(Optional.empty(), tx.smartContractId());
    }

    @Test
    void decodesTheSameBytesFromHex() {
        assertEquals(StacksTransaction.decode(tokenTransfer()),
                StacksTransaction.decodeHex(Hex.encode(tokenTransfer()).toUpperCase().replace("0X", "")));
    }

    @Test
    void decodesASponsoredContractCall() {
        WireBuilder w = header(TESTNET, 0x80000000L, 0x05);
        singleSig(w, 0x02, SIGNER, 3, 0);
        singleSig(w, 0x00, OTHER, 9, 500);
        byte[] raw = noPostConditions(w, 0x01)
                .u8(0x02).u8(26).hex(ZERO_HASH).name("pox-4").name("stack-stx").u32(2)
                .u8(0x01).hex("0000000000000000000000003b9aca00")
                .u8(0x0c).u32(2).name("hashbytes").u8(0x02).u32(20).hex(SIGNER).name("version").u8(0x02).u32(1).u8(0)
                .build();
        StacksTransaction tx = StacksTransaction.decode(raw);

        assertEquals(TransactionVersion.TESTNET, tx.version());
        assertEquals(0x80000000L, tx.chainId());
        // P2WPKH is a P2SH-wrapped script, so the node gives it the multi-sig version (SN... on testnet).
        assertEquals(new StacksAddress(StacksAddress.TESTNET_MULTI_SIG, Hex.decode(SIGNER)), tx.senderAddress());
        assertEquals("ST2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKQYAC0RQ", tx.sponsorAddress().orElseThrow().toString());
        assertEquals(BigInteger.valueOf(3), tx.nonce());
        assertEquals(Optional.of(BigInteger.valueOf(9)), tx.sponsorNonce());
        assertEquals(BigInteger.valueOf(500), tx.fee());
        assertEquals(BigInteger.ZERO, tx.origin().fee());
        assertEquals("on_chain_only", tx.anchorMode().apiName());

        TransactionPayload.ContractCall call = assertInstanceOf(TransactionPayload.ContractCall.class, tx.payload());
        assertEquals("contract_call", call.txType());
        assertEquals(ContractId.parse("ST000000000000000000002AMW42H.pox-4"), call.contract());
        assertEquals("stack-stx", call.functionName());
        assertEquals(List.of("u1000000000", "(tuple (hashbytes 0x" + SIGNER + ") (version 0x00))"),
                call.functionArgs().stream().map(ClarityValue::repr).toList());
    }

    @Test
    void decodesMultiSigWithPostConditionsAndAVersionedDeploy() {
        WireBuilder w = header(MAINNET, 1, 0x04)
                .u8(0x01).hex(SIGNER).u64(7).u64(1000).u32(3)
                .u8(0x00).fill(33, 0x02)
                .u8(0x02).fill(65, 0x22)
                .u8(0x03).fill(65, 0x33)
                .u16(2);
        w.u8(0x03).u8(0x01).u32(3)
                // STX: origin sends exactly 1000.
                .u8(0x00).u8(0x01).u8(0x01).u64(1000)
                // FT: a standard principal sends at least 5 my-token.
                .u8(0x01).u8(0x02).u8(22).hex(OTHER)
                .u8(22).hex(ZERO_HASH).name("token-contract").name("my-token")
                .u8(0x03).u64(5)
                // NFT: a contract does not send badge u1.
                .u8(0x02).u8(0x03).u8(20).hex(SIGNER).name("vault")
                .u8(22).hex(ZERO_HASH).name("badges").name("badge")
                .u8(0x01).hex("00000000000000000000000000000001")
                .u8(0x11);
        String source = "(define-public (hi)\n\t(ok u1))";
        byte[] raw = w.u8(0x06).u8(0x02).name("hello-world").sized(source.getBytes(StandardCharsets.US_ASCII)).build();
        StacksTransaction tx = StacksTransaction.decode(raw);

        assertTrue(tx.senderAddress().toString().startsWith("SM"), tx.senderAddress().toString());
        assertEquals(StacksAddress.MAINNET_MULTI_SIG, tx.senderAddress().version());
        SpendingCondition.MultiSig origin = assertInstanceOf(SpendingCondition.MultiSig.class, tx.origin());
        assertEquals(2, origin.signaturesRequired());
        assertEquals(List.of(AuthField.Type.PUBLIC_KEY_COMPRESSED, AuthField.Type.SIGNATURE_COMPRESSED,
                AuthField.Type.SIGNATURE_UNCOMPRESSED), origin.fields().stream().map(AuthField::type).toList());
        assertEquals("0x" + "02".repeat(33), origin.fields().get(0).hex());
        assertEquals("any", tx.anchorMode().apiName());
        assertEquals("allow", tx.postConditionMode().apiName());

        assertEquals(3, tx.postConditions().size());
        PostCondition.Stx stx = assertInstanceOf(PostCondition.Stx.class, tx.postConditions().get(0));
        assertEquals("stx", stx.type());
        assertEquals("principal_origin", stx.principal().typeId());
        assertEquals("sent_equal_to", stx.conditionCode().apiName());
        assertEquals(BigInteger.valueOf(1000), stx.amount());

        PostCondition.Fungible ft = assertInstanceOf(PostCondition.Fungible.class, tx.postConditions().get(1));
        assertEquals("fungible", ft.type());
        assertEquals("principal_standard", ft.principal().typeId());
        assertEquals("SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7",
                ((PostConditionPrincipal.Standard) ft.principal()).address().toString());
        assertEquals("SP000000000000000000002Q6VF78.token-contract::my-token", ft.asset().assetId());
        assertEquals("sent_greater_than_or_equal_to", ft.conditionCode().apiName());

        PostCondition.NonFungible nft = assertInstanceOf(PostCondition.NonFungible.class, tx.postConditions().get(2));
        assertEquals("non_fungible", nft.type());
        assertEquals("principal_contract", nft.principal().typeId());
        assertEquals("SM", ((PostConditionPrincipal.Contract) nft.principal()).contract().toString().substring(0, 2));
        assertEquals("vault", ((PostConditionPrincipal.Contract) nft.principal()).contract().name());
        assertEquals("badge", nft.asset().assetName());
        assertEquals("u1", nft.assetValue().repr());
        assertEquals("not_sent", nft.conditionCode().apiName());

        TransactionPayload.SmartContract deploy =
                assertInstanceOf(TransactionPayload.SmartContract.class, tx.payload());
        assertEquals("smart_contract", deploy.txType());
        assertEquals(TransactionPayload.VERSIONED_SMART_CONTRACT, deploy.typeId());
        assertEquals(OptionalInt.of(2), deploy.clarityVersion());
        assertEquals(source, deploy.sourceCode());
        assertEquals(tx.senderAddress() + ".hello-world", tx.smartContractId().orElseThrow().toString());
    }

    @Test
    void decodesUnversionedDeployAndOrderIndependentMultiSig() {
        for (int hashMode : new int[] {0x05, 0x07}) {
            byte[] raw = noPostConditions(header(TESTNET, 0x80000000L, 0x04)
                    .u8(hashMode).hex(SIGNER).u64(0).u64(10).u32(1).u8(0x02).fill(65, 0x44).u16(1), 0x03)
                    .u8(0x01).name("c").sized("(print 1)".getBytes(StandardCharsets.US_ASCII))
                    .build();
            StacksTransaction tx = StacksTransaction.decode(raw);
            assertEquals(StacksAddress.TESTNET_MULTI_SIG, tx.senderAddress().version());
            TransactionPayload.SmartContract deploy =
                    assertInstanceOf(TransactionPayload.SmartContract.class, tx.payload());
            assertEquals(OptionalInt.empty(), deploy.clarityVersion());
            assertEquals(TransactionPayload.SMART_CONTRACT, deploy.typeId());
        }
    }

    @Test
    void decodesPoisonMicroblock() {
        WireBuilder w = noPostConditions(singleSig(header(MAINNET, 1, 0x04), 0x00, SIGNER, 1, 1), 0x03).u8(0x03);
        for (int i = 1; i <= 2; i++) {
            w.u8(0).u16(7).fill(32, 0xaa).fill(32, i).fill(65, 0xbb);
        }
        TransactionPayload.PoisonMicroblock poison = assertInstanceOf(TransactionPayload.PoisonMicroblock.class,
                StacksTransaction.decode(w.build()).payload());
        assertEquals("poison_microblock", poison.txType());
        assertEquals(7, poison.header1().sequence());
        assertEquals("0x" + "02".repeat(32), poison.header2().txMerkleRoot());
        assertEquals(Hex.encode(wire().u8(0).u16(7).fill(32, 0xaa).fill(32, 1).fill(65, 0xbb).build()),
                poison.header1().serialized());
    }

    private static WireBuilder coinbaseHeader() {
        return noPostConditions(singleSig(header(TESTNET, 0x80000000L, 0x04), 0x00, SIGNER, 0, 0), 0x01);
    }

    @Test
    void decodesAllCoinbaseForms() {
        TransactionPayload.Coinbase plain = (TransactionPayload.Coinbase) StacksTransaction.decode(
                coinbaseHeader().u8(0x04).fill(32, 0).build()).payload();
        assertEquals("coinbase", plain.txType());
        assertEquals("0x" + "00".repeat(32), plain.payload());
        assertEquals(Optional.empty(), plain.altRecipient());
        assertEquals(TransactionPayload.COINBASE, plain.typeId());

        TransactionPayload.Coinbase toContract = (TransactionPayload.Coinbase) StacksTransaction.decode(
                coinbaseHeader().u8(0x05).fill(32, 1).u8(0x06).u8(26).hex(ZERO_HASH).name("miner-pool").build())
                .payload();
        assertEquals("ST000000000000000000002AMW42H.miner-pool", toContract.altRecipient().orElseThrow().toString());
        assertEquals(TransactionPayload.COINBASE_TO_ALT_RECIPIENT, toContract.typeId());

        TransactionPayload.Coinbase nakamoto = (TransactionPayload.Coinbase) StacksTransaction.decode(
                coinbaseHeader().u8(0x08).fill(32, 2).u8(0x09).fill(80, 0x55).build()).payload();
        assertEquals(Optional.empty(), nakamoto.altRecipient());
        assertEquals(Optional.of("0x" + "55".repeat(80)), nakamoto.vrfProof());
        assertEquals(TransactionPayload.NAKAMOTO_COINBASE, nakamoto.typeId());

        TransactionPayload.Coinbase nakamotoTo = (TransactionPayload.Coinbase) StacksTransaction.decode(
                coinbaseHeader().u8(0x08).fill(32, 2).u8(0x0a).u8(0x05).u8(26).hex(OTHER).fill(80, 0x55).build())
                .payload();
        assertEquals("ST2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKQYAC0RQ", nakamotoTo.altRecipient().orElseThrow().toString());

        CodecException notOptional = assertThrows(CodecException.class, () -> StacksTransaction.decode(
                coinbaseHeader().u8(0x08).fill(32, 2).u8(0x03).fill(80, 0x55).build()));
        assertTrue(notOptional.getMessage().contains("optional principal"), notOptional.getMessage());
        assertThrows(CodecException.class, () -> StacksTransaction.decode(
                coinbaseHeader().u8(0x05).fill(32, 1).u8(0x01).hex("00000000000000000000000000000001").build()));
    }

    @Test
    void decodesTenureChange() {
        byte[] raw = coinbaseHeader().u8(0x07).fill(20, 1).fill(20, 2).fill(20, 3).fill(32, 4).u32(17).u8(0x01)
                .fill(20, 5).build();
        TransactionPayload.TenureChange change =
                assertInstanceOf(TransactionPayload.TenureChange.class, StacksTransaction.decode(raw).payload());
        assertEquals("tenure_change", change.txType());
        assertEquals("0x" + "01".repeat(20), change.tenureConsensusHash());
        assertEquals("0x" + "02".repeat(20), change.prevTenureConsensusHash());
        assertEquals("0x" + "03".repeat(20), change.burnViewConsensusHash());
        assertEquals("0x" + "04".repeat(32), change.previousTenureEnd());
        assertEquals(17, change.previousTenureBlocks());
        assertEquals("extended", change.cause().apiName());
        assertEquals("0x" + "05".repeat(20), change.pubkeyHash());
        assertThrows(CodecException.class, () -> StacksTransaction.decode(coinbaseHeader().u8(0x07).fill(20, 1)
                .fill(20, 2).fill(20, 3).fill(32, 4).u32(17).u8(0x07).fill(20, 5).build()));
    }

    @Test
    void rejectsUnknownEnumerations() {
        byte[] valid = tokenTransfer();
        assertRejectedAt(0, "transaction version", patch(valid, 0, 0x01));
        assertRejectedAt(5, "authorization type", patch(valid, 5, 0x06));
        assertRejectedAt(6, "hash mode", patch(valid, 6, 0x04));
        assertRejectedAt(43, "key encoding", patch(valid, 43, 0x02));
        assertRejectedAt(109, "anchor mode", patch(valid, 109, 0x00));
        assertRejectedAt(110, "post-condition mode", patch(valid, 110, 0x04));
        assertRejectedAt(115, "payload type", patch(valid, 115, 0x09));
        assertRejectedAt(116, "principal", patch(valid, 116, 0x01));
    }

    @Test
    void rejectsUncompressedKeysWithSegwitHashModes() {
        byte[] p2wpkh = patch(tokenTransfer(), 6, 0x02);
        assertEquals(StacksAddress.MAINNET_MULTI_SIG, StacksTransaction.decode(p2wpkh).senderAddress().version());
        assertRejectedAt(43, "uncompressed", patch(p2wpkh, 43, 0x01));
        byte[] p2wsh = noPostConditions(header(MAINNET, 1, 0x04)
                .u8(0x03).hex(SIGNER).u64(0).u64(10).u32(1).u8(0x01).fill(33, 0x04).u16(0), 0x03)
                .u8(0x04).fill(32, 0).build();
        assertRejectedAt(47, "uncompressed", p2wsh);
    }

    @Test
    void rejectsNamesTheNodeRejectsInTransactions() {
        WireBuilder deploy41 = noPostConditions(singleSig(header(MAINNET, 1, 0x04), 0x00, SIGNER, 0, 0), 0x03)
                .u8(0x01).name("a".repeat(41)).sized("(print 1)".getBytes(StandardCharsets.US_ASCII));
        CodecException e = assertThrows(CodecException.class, () -> StacksTransaction.decode(deploy41.build()));
        assertTrue(e.getMessage().contains("smart contract name"), e.getMessage());
        WireBuilder badFunction = noPostConditions(singleSig(header(MAINNET, 1, 0x04), 0x00, SIGNER, 0, 0), 0x03)
                .u8(0x02).u8(22).hex(ZERO_HASH).name("pox").name("1st").u32(0);
        assertThrows(CodecException.class, () -> StacksTransaction.decode(badFunction.build()));
        WireBuilder badSource = noPostConditions(singleSig(header(MAINNET, 1, 0x04), 0x00, SIGNER, 0, 0), 0x03)
                .u8(0x06).u8(0x02).name("c").u32(1).u8(0x07);
        assertThrows(CodecException.class, () -> StacksTransaction.decode(badSource.build()));
        WireBuilder badVersion = noPostConditions(singleSig(header(MAINNET, 1, 0x04), 0x00, SIGNER, 0, 0), 0x03)
                .u8(0x06).u8(0x00).name("c").u32(0);
        assertThrows(CodecException.class, () -> StacksTransaction.decode(badVersion.build()));
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] valid = tokenTransfer();
        byte[] longer = Arrays.copyOf(valid, valid.length + 1);
        assertRejectedAt(valid.length, "trailing", longer);
    }

    @Test
    void everyTruncationFailsCleanly() {
        byte[] valid = tokenTransfer();
        for (int length = 0; length < valid.length; length++) {
            byte[] prefix = Arrays.copyOf(valid, length);
            CodecException e = assertThrows(CodecException.class, () -> StacksTransaction.decode(prefix),
                    "prefix of " + length + " bytes");
            assertTrue(e.getMessage().contains("byte offset"), e.getMessage());
        }
    }

    @Test
    void randomCorruptionNeverEscapesAsAnotherException() {
        Random random = new Random(42);
        byte[] valid = tokenTransfer();
        for (int i = 0; i < 5000; i++) {
            byte[] mutated = valid.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
            }
            try {
                StacksTransaction.decode(mutated);
            } catch (CodecException expected) {
                // Rejected with a clear message: fine. Anything else fails the test.
            }
        }
    }

    private static byte[] patch(byte[] raw, int offset, int value) {
        byte[] copy = raw.clone();
        copy[offset] = (byte) value;
        return copy;
    }

    private static void assertRejectedAt(int offset, String mention, byte[] raw) {
        CodecException e = assertThrows(CodecException.class, () -> StacksTransaction.decode(raw));
        assertEquals(offset, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains(mention), e.getMessage());
    }
}
