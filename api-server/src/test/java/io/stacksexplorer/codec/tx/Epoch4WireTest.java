package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.WireBuilder;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.stacksexplorer.codec.WireBuilder.wire;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wire features mainnet gained in 2025-2026, from vectors built byte by byte after the SIPs (not by
 * the encoder): Clarity 5 and 6 deploys (epochs 3.4 and 4.0) and any later version number, the
 * Originator post-condition mode and the NFT {@code maybe_sent} code (SIP-040, epoch 3.4), and the
 * Staking and Pox post conditions (SIP-044, epoch 4.0: types 0x03 and 0x04). Each decodes to what the
 * API serves and re-encodes to the same bytes.
 */
class Epoch4WireTest {

    private static final String SIGNER = "1779d78a9a68bc61911f1be6176960f164f3db48";
    private static final String OTHER = "a46ff88886c2ef9762d970b4d2c63678835bd39d";

    /** Mainnet, standard single-sig P2PKH origin, nonce 7, fee 300, compressed key. */
    private static WireBuilder header() {
        return wire().u8(0x00).u32(1).u8(0x04).u8(0x00).hex(SIGNER).u64(7).u64(300).u8(0x00).fill(65, 0x11);
    }

    private static byte[] deploy(int clarityVersion) {
        byte[] source = "(define-read-only (v) (ok u6))".getBytes(StandardCharsets.US_ASCII);
        return header().u8(0x03).u8(0x02).u32(0)
                .u8(0x06).u8(clarityVersion).name("clarity-" + clarityVersion).sized(source).build();
    }

    /** A stack call guarded by every Staking code with each principal kind and every Pox code. */
    private static byte[] stakingAndPox() {
        WireBuilder w = header().u8(0x03).u8(0x02).u32(8);
        // Staking (0x03): principal, fungible condition code 0x01-0x05, u64 amount.
        w.u8(0x03).u8(0x01).u8(0x01).u64(1_000_000_000L);
        w.u8(0x03).u8(0x02).u8(22).hex(OTHER).u8(0x02).u64(5);
        w.u8(0x03).u8(0x03).u8(22).hex(OTHER).name("pool").u8(0x03).u64(new BigInteger("18446744073709551615"));
        w.u8(0x03).u8(0x01).u8(0x04).u64(0);
        w.u8(0x03).u8(0x01).u8(0x05).u64(9);
        // Pox (0x04): principal, code 0x30 not_performed / 0x31 maybe_performed / 0x32 performed.
        w.u8(0x04).u8(0x01).u8(0x30);
        w.u8(0x04).u8(0x02).u8(22).hex(OTHER).u8(0x31);
        w.u8(0x04).u8(0x03).u8(22).hex(OTHER).name("pool").u8(0x32);
        return w.u8(0x02).u8(22).hex("0000000000000000000000000000000000000000").name("pox-5").name("stake")
                .u32(1).u8(0x01).fill(16, 0).build();
    }

    /** SIP-040: mode 0x03 (originator) and an NFT condition with code 0x12 (maybe_sent). */
    private static byte[] originatorMaybeSent() {
        return header().u8(0x03).u8(0x03).u32(1)
                .u8(0x02).u8(0x01).u8(22).hex(OTHER).name("nft").name("item").u8(0x01).fill(16, 0).u8(0x12)
                .u8(0x02).u8(22).hex(OTHER).name("market").name("list").u32(0).build();
    }

    @Test
    void clarityFiveSixAndLaterDeploysDecodeWithTheirVersion() {
        for (int version : List.of(1, 2, 3, 4, 5, 6, 7, 255)) {
            byte[] raw = deploy(version);
            StacksTransaction tx = StacksTransaction.decode(raw);
            TransactionPayload.SmartContract contract = assertInstanceOf(TransactionPayload.SmartContract.class,
                    tx.payload());
            assertEquals(version, contract.clarityVersion().getAsInt());
            assertArrayEquals(raw, TransactionEncoder.encode(tx), "re-encoded, Clarity " + version);
        }
        // Version 0 was never written by any node: a decode failure, at the version byte.
        byte[] zero = deploy(0);
        CodecException e = assertThrows(CodecException.class, () -> StacksTransaction.decode(zero));
        assertTrue(e.getMessage().contains("Clarity version 0"), e.getMessage());
    }

    @Test
    void stakingAndPoxPostConditionsDecodeAsSip044DefinesThem() {
        byte[] raw = stakingAndPox();
        StacksTransaction tx = StacksTransaction.decode(raw);
        List<PostCondition> pcs = tx.postConditions();
        assertEquals(8, pcs.size());
        PostCondition.Staking first = assertInstanceOf(PostCondition.Staking.class, pcs.get(0));
        assertEquals("staking", first.type());
        assertInstanceOf(PostConditionPrincipal.Origin.class, first.principal());
        assertEquals(FungibleConditionCode.SENT_EQUAL_TO, first.conditionCode());
        assertEquals(BigInteger.valueOf(1_000_000_000L), first.amount());
        PostCondition.Staking third = assertInstanceOf(PostCondition.Staking.class, pcs.get(2));
        assertEquals("principal_contract", third.principal().typeId());
        assertEquals(FungibleConditionCode.SENT_GREATER_THAN_OR_EQUAL_TO, third.conditionCode());
        assertEquals(new BigInteger("18446744073709551615"), third.amount());
        assertEquals(List.of("sent_equal_to", "sent_greater_than", "sent_greater_than_or_equal_to", "sent_less_than",
                        "sent_less_than_or_equal_to"),
                pcs.subList(0, 5).stream().map(pc -> ((PostCondition.Staking) pc).conditionCode().apiName()).toList());
        List<String> poxCodes = pcs.subList(5, 8).stream()
                .map(pc -> assertInstanceOf(PostCondition.Pox.class, pc)).map(pc -> pc.conditionCode().apiName()).toList();
        assertEquals(List.of("not_performed", "maybe_performed", "performed"), poxCodes);
        assertEquals("pox", pcs.get(5).type());
        assertEquals("principal_standard", pcs.get(6).principal().typeId());
        assertArrayEquals(raw, TransactionEncoder.encode(tx));
    }

    @Test
    void originatorModeAndMaybeSentDecode() {
        byte[] raw = originatorMaybeSent();
        StacksTransaction tx = StacksTransaction.decode(raw);
        assertEquals(PostConditionMode.ORIGINATOR, tx.postConditionMode());
        PostCondition.NonFungible nft = assertInstanceOf(PostCondition.NonFungible.class, tx.postConditions().get(0));
        assertEquals("maybe_sent", nft.conditionCode().apiName());
        assertArrayEquals(raw, TransactionEncoder.encode(tx));
    }

    @Test
    void unknownCodesAndTypesAreRefusedAtTheirOffset() {
        byte[] raw = stakingAndPox();
        // The first condition's type byte follows the header (1+4+1+1+20+8+8+1+65 = 109), mode and count.
        int firstType = 109 + 1 + 1 + 4;
        assertEquals(0x03, raw[firstType]);
        byte[] futureType = raw.clone();
        futureType[firstType] = 0x05;
        CodecException type = assertThrows(CodecException.class, () -> StacksTransaction.decode(futureType));
        assertEquals(firstType, type.offset());
        assertTrue(type.getMessage().contains("post-condition type 5"), type.getMessage());
        // The first Pox condition's code: origin principal, so type, principal kind, code.
        int poxCode = indexOf(raw, new byte[] {0x04, 0x01, 0x30}) + 2;
        byte[] futureCode = raw.clone();
        futureCode[poxCode] = 0x33;
        CodecException code = assertThrows(CodecException.class, () -> StacksTransaction.decode(futureCode));
        assertEquals(poxCode, code.offset());
        assertTrue(code.getMessage().contains("PoX condition code 0x33"), code.getMessage());
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
