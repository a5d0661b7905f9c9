package io.stacksexplorer.codec.tx;

import static io.stacksexplorer.codec.WireBuilder.wire;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.WireBuilder;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class TransactionEncoderTest {

    private static final String SIGNER = "1779d78a9a68bc61911f1be6176960f164f3db48";
    private static final String OTHER = "a46ff88886c2ef9762d970b4d2c63678835bd39d";
    private static final String ZERO_HASH = "0000000000000000000000000000000000000000";
    private static final int MAINNET = 0x00;
    private static final int TESTNET = 0x80;

    // --- hand-made wire vectors, built byte by byte (independent of the encoder) -------------------

    private static WireBuilder header(int version, long chainId, int authType) {
        return wire().u8(version).u32(chainId).u8(authType);
    }

    private static WireBuilder singleSig(WireBuilder w, int hashMode, String signer, long nonce, long fee,
                                         int keyEncoding) {
        return w.u8(hashMode).hex(signer).u64(nonce).u64(fee).u8(keyEncoding).fill(65, 0x11);
    }

    private static WireBuilder standard() {
        return singleSig(header(MAINNET, 1, 0x04), 0x00, SIGNER, 5, 180, 0x00);
    }

    private static WireBuilder noPostConditions(WireBuilder w) {
        return w.u8(0x03).u8(0x02).u32(0);
    }

    private static byte[] tokenTransferToContract() {
        return noPostConditions(standard())
                .u8(0x00).u8(0x06).u8(22).hex(OTHER).name("vault").u64(new BigInteger("18446744073709551615"))
                .fill(34, 0x7a).build();
    }

    private static byte[] tokenTransferUncompressed() {
        WireBuilder w = singleSig(header(TESTNET, 0x80000000L, 0x04), 0x00, SIGNER, 0, 1, 0x01);
        return noPostConditions(w).u8(0x00).u8(0x05).u8(26).hex(OTHER).u64(1).fill(34, 0).build();
    }

    private static byte[] smartContract() {
        byte[] source = "(define-data-var n uint u0)\n\t(print \"hi\")\r\n".getBytes(StandardCharsets.US_ASCII);
        return noPostConditions(standard()).u8(0x01).name("counter").sized(source).build();
    }

    private static byte[] versionedSmartContract() {
        byte[] source = "(define-read-only (get) (ok u1))".getBytes(StandardCharsets.US_ASCII);
        return noPostConditions(standard()).u8(0x06).u8(0x02).name("getter-v2").sized(source).build();
    }

    private static byte[] emptyContract() {
        return noPostConditions(standard()).u8(0x06).u8(0x04).name("a").sized(new byte[0]).build();
    }

    private static byte[] contractCall() {
        return noPostConditions(standard())
                .u8(0x02).u8(22).hex(ZERO_HASH).name("pox-4").name("stack-stx").u32(4)
                .u8(0x01).hex("0000000000000000000000003b9aca00")
                .u8(0x0c).u32(2).name("hashbytes").u8(0x02).u32(20).hex(SIGNER).name("version").u8(0x02).u32(1).u8(0)
                .u8(0x0a).u8(0x0e).u32(4).hex("f09f9880")
                .u8(0x0b).u32(2).u8(0x07).u8(0x03).u8(0x08).u8(0x00).hex("ffffffffffffffffffffffffffffff85")
                .build();
    }

    private static WireBuilder microblockHeader(WireBuilder w, int sequence, int rootByte) {
        return w.u8(0).u16(sequence).fill(32, 0xab).fill(32, rootByte).fill(65, 0x22);
    }

    private static byte[] poisonMicroblock() {
        WireBuilder w = noPostConditions(standard()).u8(0x03);
        microblockHeader(w, 7, 0x01);
        return microblockHeader(w, 7, 0x02).build();
    }

    private static byte[] coinbase() {
        return wire().u8(MAINNET).u32(1).u8(0x04).u8(0x00).hex(SIGNER).u64(0).u64(0).u8(0x00).fill(65, 0x33)
                .u8(0x01).u8(0x02).u32(0).u8(0x04).fill(32, 0x44).build();
    }

    private static byte[] coinbaseToAltRecipient(boolean contract) {
        WireBuilder w = wire().u8(MAINNET).u32(1).u8(0x04).u8(0x00).hex(SIGNER).u64(1).u64(0).u8(0x00)
                .fill(65, 0x33).u8(0x01).u8(0x02).u32(0).u8(0x05).fill(32, 0x44);
        return (contract ? w.u8(0x06).u8(22).hex(OTHER).name("miner-pool") : w.u8(0x05).u8(22).hex(OTHER)).build();
    }

    private static byte[] nakamotoCoinbase(int recipient) {
        WireBuilder w = wire().u8(MAINNET).u32(1).u8(0x04).u8(0x00).hex(SIGNER).u64(1).u64(0).u8(0x00)
                .fill(65, 0x33).u8(0x01).u8(0x02).u32(0).u8(0x08).fill(32, 0x44);
        switch (recipient) {
            case 0 -> w.u8(0x09);
            case 1 -> w.u8(0x0a).u8(0x05).u8(22).hex(OTHER);
            default -> w.u8(0x0a).u8(0x06).u8(20).hex(OTHER).name("pool");
        }
        return w.fill(80, 0x55).build();
    }

    private static byte[] tenureChange() {
        return wire().u8(MAINNET).u32(1).u8(0x04).u8(0x00).hex(SIGNER).u64(2).u64(0).u8(0x00).fill(65, 0x33)
                .u8(0x01).u8(0x02).u32(0).u8(0x07)
                .fill(20, 0x01).fill(20, 0x02).fill(20, 0x03).fill(32, 0x04).u32(0xfffffffeL).u8(0x06)
                .hex(OTHER).build();
    }

    private static byte[] sponsored() {
        WireBuilder w = header(MAINNET, 1, 0x05);
        singleSig(w, 0x02, SIGNER, 3, 0, 0x00);
        singleSig(w, 0x00, OTHER, 9, 500, 0x00);
        return noPostConditions(w).u8(0x02).u8(22).hex(OTHER).name("dex").name("swap").u32(0).build();
    }

    /** 2-of-3 P2SH origin sponsored by a P2WSH non-sequential multi-sig. */
    private static byte[] multiSig() {
        WireBuilder w = header(MAINNET, 1, 0x05);
        w.u8(0x01).hex(SIGNER).u64(4).u64(0).u32(3)
                .u8(0x02).fill(65, 0x61).u8(0x03).fill(65, 0x62).u8(0x00).fill(33, 0x02);
        w.u16(2);
        w.u8(0x07).hex(OTHER).u64(8).u64(2_000).u32(2).u8(0x00).fill(33, 0x03).u8(0x02).fill(65, 0x64).u16(1);
        return noPostConditions(w).u8(0x00).u8(0x05).u8(20).hex(OTHER).u64(42).fill(34, 0).build();
    }

    /** Every post-condition type with every principal kind and condition code. */
    private static byte[] allPostConditions() {
        WireBuilder w = standard().u8(0x01).u8(0x02).u32(11);
        // STX: origin / standard / contract principal, all five fungible codes.
        w.u8(0x00).u8(0x01).u8(0x01).u64(1_000_000);
        w.u8(0x00).u8(0x02).u8(22).hex(OTHER).u8(0x02).u64(5);
        w.u8(0x00).u8(0x03).u8(22).hex(OTHER).name("vault").u8(0x03).u64(0);
        // FT: origin / standard / contract.
        w.u8(0x01).u8(0x01).u8(22).hex(OTHER).name("token").name("tok").u8(0x04).u64(77);
        w.u8(0x01).u8(0x02).u8(20).hex(SIGNER).u8(22).hex(OTHER).name("token").name("tok").u8(0x05).u64(78);
        w.u8(0x01).u8(0x03).u8(22).hex(OTHER).name("pool").u8(22).hex(OTHER).name("token").name("tok").u8(0x01)
                .u64(new BigInteger("18446744073709551615"));
        // NFT: origin / standard / contract, all three codes, assorted identifier values.
        w.u8(0x02).u8(0x01).u8(22).hex(OTHER).name("nft").name("item").u8(0x01).hex("0000000000000000000000000000002a")
                .u8(0x10);
        w.u8(0x02).u8(0x02).u8(22).hex(SIGNER).u8(22).hex(OTHER).name("nft").name("item")
                .u8(0x0c).u32(2).name("a").u8(0x03).name("b").u8(0x0d).u32(2).hex("6869").u8(0x11);
        w.u8(0x02).u8(0x03).u8(22).hex(OTHER).name("market").u8(22).hex(OTHER).name("nft").name("item")
                .u8(0x02).u32(3).hex("010203").u8(0x12);
        w.u8(0x02).u8(0x01).u8(22).hex(OTHER).name("names").name("names")
                .u8(0x06).u8(22).hex(OTHER).name("x").u8(0x10);
        w.u8(0x00).u8(0x01).u8(0x05).u64(9);
        return w.u8(0x02).u8(22).hex(OTHER).name("market").name("buy").u32(1).u8(0x01).fill(16, 0).build();
    }

    @Test
    void reEncodesHandMadeVectorsByteForByte() {
        Map<String, byte[]> vectors = new TreeMap<>();
        vectors.put("token transfer to contract, max amount", tokenTransferToContract());
        vectors.put("token transfer, testnet, uncompressed key", tokenTransferUncompressed());
        vectors.put("smart contract", smartContract());
        vectors.put("versioned smart contract", versionedSmartContract());
        vectors.put("empty contract, Clarity 4", emptyContract());
        vectors.put("contract call", contractCall());
        vectors.put("poison microblock", poisonMicroblock());
        vectors.put("coinbase", coinbase());
        vectors.put("coinbase to standard alt recipient", coinbaseToAltRecipient(false));
        vectors.put("coinbase to contract alt recipient", coinbaseToAltRecipient(true));
        vectors.put("nakamoto coinbase without recipient", nakamotoCoinbase(0));
        vectors.put("nakamoto coinbase to standard", nakamotoCoinbase(1));
        vectors.put("nakamoto coinbase to contract", nakamotoCoinbase(2));
        vectors.put("tenure change", tenureChange());
        vectors.put("sponsored", sponsored());
        vectors.put("multi-sig origin and sponsor", multiSig());
        vectors.put("all post conditions", allPostConditions());
        vectors.forEach((name, raw) -> assertRoundTrip(raw, name));

        // Sanity: the vectors really cover what they claim.
        StacksTransaction multi = StacksTransaction.decode(multiSig());
        assertTrue(multi.origin() instanceof SpendingCondition.MultiSig);
        assertTrue(multi.sponsor().orElseThrow() instanceof SpendingCondition.MultiSig);
        StacksTransaction conditions = StacksTransaction.decode(allPostConditions());
        assertEquals(11, conditions.postConditions().size());
        assertEquals(List.of("stx", "fungible", "non_fungible"),
                conditions.postConditions().stream().map(PostCondition::type).distinct().toList());
        assertEquals(3, conditions.postConditions().stream().map(c -> c.principal().typeId()).distinct().count());
    }

    @Test
    void encodesBuiltModelsThatDecodeBackEqual() {
        StacksAddress sender = new StacksAddress(StacksAddress.MAINNET_SINGLE_SIG, Hex.decode(SIGNER));
        StacksAddress other = new StacksAddress(StacksAddress.MAINNET_SINGLE_SIG, Hex.decode(OTHER));
        SpendingCondition origin = new SpendingCondition.SingleSig(HashMode.P2PKH, "0x" + SIGNER,
                BigInteger.valueOf(12), BigInteger.valueOf(3_000), KeyEncoding.COMPRESSED, "0x" + "5a".repeat(65));
        ContractId token = new ContractId(other, "token");
        List<PostCondition> conditions = List.of(
                new PostCondition.Stx(new PostConditionPrincipal.Origin(), FungibleConditionCode.SENT_EQUAL_TO,
                        BigInteger.TEN),
                new PostCondition.Fungible(new PostConditionPrincipal.Contract(token), new AssetInfo(token, "tok"),
                        FungibleConditionCode.SENT_GREATER_THAN, BigInteger.ONE),
                new PostCondition.NonFungible(new PostConditionPrincipal.Standard(sender),
                        new AssetInfo(token, "nft"), ClarityValue.UInt.of(7), NonFungibleConditionCode.SENT));
        List<TransactionPayload> payloads = List.of(
                new TransactionPayload.TokenTransfer(other, BigInteger.valueOf(1_000_000), "0x" + "00".repeat(34)),
                new TransactionPayload.SmartContract("hello", "(print u1)", OptionalInt.empty()),
                new TransactionPayload.SmartContract("hello-v2", "(print u2)", OptionalInt.of(2)),
                new TransactionPayload.ContractCall(token, "transfer",
                        List.of(ClarityValue.UInt.of(5), new ClarityValue.StandardPrincipal(other), ClarityValue.NONE)),
                new TransactionPayload.PoisonMicroblock(
                        TransactionEncoder.microblockHeader(0, 3, "0x" + "ab".repeat(32), "0x" + "01".repeat(32),
                                "0x" + "22".repeat(65)),
                        TransactionEncoder.microblockHeader(0, 3, "0x" + "ab".repeat(32), "0x" + "02".repeat(32),
                                "0x" + "22".repeat(65))),
                new TransactionPayload.Coinbase("0x" + "00".repeat(32), Optional.empty(), Optional.empty()),
                new TransactionPayload.Coinbase("0x" + "00".repeat(32), Optional.of(token), Optional.empty()),
                new TransactionPayload.Coinbase("0x" + "00".repeat(32), Optional.of(other),
                        Optional.of("0x" + "99".repeat(80))),
                new TransactionPayload.TenureChange("0x" + "01".repeat(20), "0x" + "02".repeat(20),
                        "0x" + "03".repeat(20), "0x" + "04".repeat(32), 3, TenureChangeCause.EXTENDED,
                        "0x" + SIGNER));
        for (TransactionPayload payload : payloads) {
            StacksTransaction draft = new StacksTransaction("0x", TransactionVersion.MAINNET, 1, origin,
                    Optional.empty(), AnchorMode.ANY, PostConditionMode.DENY, conditions, payload);
            StacksTransaction sealed = TransactionEncoder.seal(draft);
            byte[] raw = TransactionEncoder.encode(draft);
            assertEquals(Sha512_256.txId(raw), sealed.txId());
            assertEquals(sealed, StacksTransaction.decode(raw), payload.txType());
            assertEquals(Hex.encode(raw), TransactionEncoder.encodeHex(sealed));
        }
    }

    @Test
    void refusesWhatTheDecoderWouldRefuse() {
        SpendingCondition shortSignature = new SpendingCondition.SingleSig(HashMode.P2PKH, "0x" + SIGNER,
                BigInteger.ZERO, BigInteger.ZERO, KeyEncoding.COMPRESSED, "0x00");
        TransactionPayload payload = new TransactionPayload.Coinbase("0x" + "00".repeat(32), Optional.empty(),
                Optional.empty());
        assertThrows(CodecException.class, () -> TransactionEncoder.encode(new StacksTransaction("0x",
                TransactionVersion.MAINNET, 1, shortSignature, Optional.empty(), AnchorMode.ON_CHAIN_ONLY,
                PostConditionMode.DENY, List.of(), payload)));
        SpendingCondition negativeFee = new SpendingCondition.SingleSig(HashMode.P2PKH, "0x" + SIGNER,
                BigInteger.ZERO, BigInteger.valueOf(-1), KeyEncoding.COMPRESSED, "0x" + "00".repeat(65));
        assertThrows(CodecException.class, () -> TransactionEncoder.encode(new StacksTransaction("0x",
                TransactionVersion.MAINNET, 1, negativeFee, Optional.empty(), AnchorMode.ON_CHAIN_ONLY,
                PostConditionMode.DENY, List.of(), payload)));
        SpendingCondition ok = new SpendingCondition.SingleSig(HashMode.P2PKH, "0x" + SIGNER,
                BigInteger.ZERO, BigInteger.ZERO, KeyEncoding.COMPRESSED, "0x" + "00".repeat(65));
        assertThrows(CodecException.class, () -> TransactionEncoder.encode(new StacksTransaction("0x",
                TransactionVersion.MAINNET, 1, ok, Optional.empty(), AnchorMode.ANY, PostConditionMode.DENY,
                List.of(), new TransactionPayload.SmartContract("x", "caf\u00e9", OptionalInt.empty()))));
    }

    // --- recorded node payloads ---------------------------------------------------------------------

    @Test
    void reEncodesEveryRecordedTransactionByteForByte() throws IOException {
        Optional<Path> folder = NodeEventsReplayTest.eventsFolder();
        Assumptions.assumeTrue(folder.isPresent(), "no shared/data/stacks-node-events beside the project");
        List<Path> files;
        try (Stream<Path> listing = Files.list(folder.get())) {
            files = listing.filter(p -> p.toString().endsWith(".tsv")).sorted().toList();
        }
        ObjectMapper json = new ObjectMapper();
        List<String> failures = new ArrayList<>();
        int count = 0;
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String[] columns = lines.get(i).split("\t", 4);
                List<String> raws = new ArrayList<>();
                JsonNode body = json.readTree(columns[3]);
                switch (columns[2]) {
                    case "/new_block", "/new_microblocks" ->
                            body.path("transactions").forEach(tx -> raws.add(tx.path("raw_tx").asText()));
                    case "/new_mempool_tx" -> body.forEach(tx -> raws.add(tx.asText()));
                    default -> {
                    }
                }
                for (String rawHex : raws) {
                    if ("0x00".equals(rawHex)) {
                        continue; // burnchain operation, no transaction bytes
                    }
                    byte[] raw = Hex.decode(rawHex);
                    try {
                        assertArrayEquals(raw, TransactionEncoder.encode(StacksTransaction.decode(raw)));
                        count++;
                    } catch (RuntimeException | AssertionError e) {
                        failures.add(file.getFileName() + ":" + (i + 1) + ": " + e);
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " failures:\n" + String.join("\n", failures));
        }
        System.out.printf("re-encoded %d recorded transactions byte for byte%n", count);
        assertTrue(count > 0, "no transactions found");
    }

    private static void assertRoundTrip(byte[] raw, String name) {
        StacksTransaction tx = StacksTransaction.decode(raw);
        assertArrayEquals(raw, TransactionEncoder.encode(tx), name);
        assertEquals(tx, TransactionEncoder.seal(tx), name);
    }
}
