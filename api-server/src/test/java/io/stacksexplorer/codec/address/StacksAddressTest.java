package io.stacksexplorer.codec.address;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StacksAddressTest {

    private static final String[] HASHES = {
        "a46ff88886c2ef9762d970b4d2c63678835bd39d",
        "0000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000001",
        "1000000000000000000000000000000000000001",
        "1000000000000000000000000000000000000000",
    };
    private static final int[] VERSIONS = {22, 0, 31, 20, 26, 21};

    /** stacks-core c32.rs {@code test_addresses}: VERSIONS x HASHES. */
    private static final String[][] ADDRESSES = {
        {"SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7", "SP000000000000000000002Q6VF78",
            "SP00000000000000000005JA84HQ", "SP80000000000000000000000000000004R0CMNV",
            "SP800000000000000000000000000000033H8YKK"},
        {"S02J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKPVKG2CE", "S0000000000000000000002AA028H",
            "S000000000000000000006EKBDDS", "S080000000000000000000000000000007R1QC00",
            "S080000000000000000000000000000003ENTGCQ"},
        {"SZ2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKQ9H6DPR", "SZ000000000000000000002ZE1VMN",
            "SZ00000000000000000005HZ3DVN", "SZ80000000000000000000000000000004XBV6MS",
            "SZ800000000000000000000000000000007VF5G0"},
        {"SM2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKQVX8X0G", "SM0000000000000000000062QV6X",
            "SM00000000000000000005VR75B2", "SM80000000000000000000000000000004WBEWKC",
            "SM80000000000000000000000000000000JGSYGV"},
        {"ST2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKQYAC0RQ", "ST000000000000000000002AMW42H",
            "ST000000000000000000042DB08Y", "ST80000000000000000000000000000006BYJ4R4",
            "ST80000000000000000000000000000002YBNPV3"},
        {"SN2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKP6D2ZK9", "SN000000000000000000003YDHWKJ",
            "SN00000000000000000005341MC8", "SN800000000000000000000000000000066KZWY0",
            "SN800000000000000000000000000000006H75AK"},
    };

    @Test
    void matchesTheNodesAddressTable() {
        for (int v = 0; v < VERSIONS.length; v++) {
            for (int h = 0; h < HASHES.length; h++) {
                StacksAddress address = new StacksAddress(VERSIONS[v], Hex.decode(HASHES[h]));
                assertEquals(ADDRESSES[v][h], address.toString());
                assertEquals(address, StacksAddress.parse(ADDRESSES[v][h]));
            }
        }
    }

    @Test
    void knownChainAddresses() {
        StacksAddress boot = StacksAddress.parse("SP000000000000000000002Q6VF78");
        assertEquals(22, boot.version());
        assertArrayEquals(new byte[20], boot.hash160());
        assertTrue(boot.isMainnet());

        StacksAddress testnetBoot = StacksAddress.parse("ST000000000000000000002AMW42H");
        assertEquals(26, testnetBoot.version());
        assertArrayEquals(new byte[20], testnetBoot.hash160());
        assertTrue(testnetBoot.isTestnet());
        assertFalse(testnetBoot.isMainnet());

        StacksAddress stacker = StacksAddress.parse("SPBQKNWAK9MBRRCH3WDYC5V9C3RP9WYV903N7QPT");
        assertEquals("0x1779d78a9a68bc61911f1be6176960f164f3db48", stacker.hash160Hex());
        assertEquals(StacksAddress.MAINNET_SINGLE_SIG, stacker.version());

        assertTrue(StacksAddress.parse("SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE").isMainnet());

        StacksAddress multisig = StacksAddress.parse("SN3ZWA4SKZ2TZHCRMPF3KEWEAD6BEFD00K39DXPFM");
        assertEquals(StacksAddress.TESTNET_MULTI_SIG, multisig.version());
        assertTrue(multisig.isTestnet());
    }

    @Test
    void acceptsTheNodesNormalisations() {
        StacksAddress expected = new StacksAddress(0, Hex.decode(HASHES[0]));
        for (String text : new String[] {
            "S02J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKPVKG2CE", "SO2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKPVKG2CE",
            "S02J6ZY48GVLEZ5V2V5RB9MP66SW86PYKKPVKG2CE", "sO2j6zy48gvlez5v2v5rb9mp66sw86pykkpvkg2ce",
            "s02j6zy48gv1ez5v2v5rb9mp66sw86pykkpvkg2ce"}) {
            StacksAddress parsed = StacksAddress.parse(text);
            assertEquals(expected, parsed, text);
            assertEquals("S02J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKPVKG2CE", parsed.toString());
        }
    }

    @Test
    void rejectsMalformedAddresses() {
        assertThrows(CodecException.class, () -> StacksAddress.parse("SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ8"));
        assertThrows(CodecException.class, () -> StacksAddress.parse("XP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7"));
        assertThrows(CodecException.class, () -> StacksAddress.parse("SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJU"));
        assertThrows(CodecException.class, () -> StacksAddress.parse("S\uD835\uDFD82J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKPVKG2CE"));
        assertThrows(CodecException.class, () -> StacksAddress.parse("SP"));
        assertThrows(CodecException.class, () -> StacksAddress.parse(""));
        assertThrows(CodecException.class, () -> StacksAddress.parse(null));
        // A valid c32check string whose payload is not 20 bytes.
        String shortHash = "S" + C32.checkEncode(22, new byte[] {1, 2, 3});
        CodecException e = assertThrows(CodecException.class, () -> StacksAddress.parse(shortHash));
        assertTrue(e.getMessage().contains("3 bytes"), e.getMessage());
    }

    @Test
    void rejectsImpossibleComponents() {
        assertThrows(CodecException.class, () -> new StacksAddress(32, new byte[20]));
        assertThrows(CodecException.class, () -> new StacksAddress(-1, new byte[20]));
        assertThrows(CodecException.class, () -> new StacksAddress(22, new byte[19]));
    }

    @Test
    void isImmutableAndComparesByValue() {
        byte[] hash = new byte[20];
        StacksAddress address = new StacksAddress(22, hash);
        hash[0] = 1;
        address.hash160()[1] = 1;
        assertArrayEquals(new byte[20], address.hash160());
        assertEquals(new StacksAddress(22, new byte[20]), address);
        assertEquals(new StacksAddress(22, new byte[20]).hashCode(), address.hashCode());
        assertNotEquals(new StacksAddress(26, new byte[20]), address);
    }

    @Test
    void randomAddressesRoundTrip() {
        Random random = new Random(7L);
        for (int i = 0; i < 1000; i++) {
            byte[] hash = new byte[20];
            random.nextBytes(hash);
            for (int z = 0; z < random.nextInt(4); z++) {
                hash[z] = 0;
            }
            StacksAddress address = new StacksAddress(VERSIONS[random.nextInt(VERSIONS.length)], hash);
            assertEquals(address, StacksAddress.parse(address.toString()));
            assertEquals(address, StacksAddress.parse(address.toString().toLowerCase()));
        }
    }
}
