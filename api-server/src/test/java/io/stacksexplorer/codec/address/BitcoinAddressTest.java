package io.stacksexplorer.codec.address;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.Hex;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Reward addresses as PoX tuples, from the BIPs' own test vectors and well-known addresses. */
class BitcoinAddressTest {

    private static void assertPox(String address, int version, String hashBytes) {
        BitcoinAddress parsed = BitcoinAddress.parse(address);
        assertEquals(version, parsed.version(), address);
        assertEquals(hashBytes, Hex.encode(parsed.hashBytes()), address);
    }

    @Test
    void base58checkAddressesOfBothNetworks() {
        // The genesis coinbase's address, and BIP-13's pay-to-script-hash example.
        assertPox("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", BitcoinAddress.P2PKH, "0x62e907b15cbf27d5425399ebf6f0fb50ebb88f18");
        assertPox("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", BitcoinAddress.P2SH, "0xb472a266d0bd89c13706a4132ccfb16f7c3b9fcb");
        assertPox("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", BitcoinAddress.P2PKH, "0x243f1394f44554f4ce3fd68649c19adc483ce924");
    }

    @Test
    void segwitAddressesFromBip173AndBip350() {
        assertPox("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", BitcoinAddress.P2WPKH,
                "0x751e76e8199196d454941c45d1b3a323f1433bd6");
        assertPox("tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", BitcoinAddress.P2WSH,
                "0x1863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262");
        assertPox("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", BitcoinAddress.P2TR,
                "0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
    }

    @Test
    void aWrongChecksumOrCharacterIsRefused() {
        assertThrows(CodecException.class, () -> BitcoinAddress.parse("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"));
        assertThrows(CodecException.class, () -> BitcoinAddress.parse("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T5"));
        assertThrows(CodecException.class, () -> BitcoinAddress.parse("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0"));
        // A witness v1 program with the v0 (bech32) checksum: BIP-350 requires bech32m.
        assertThrows(CodecException.class,
                () -> BitcoinAddress.parse("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd"));
    }
}
