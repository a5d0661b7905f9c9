package io.stacksexplorer.write;

import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.HashMode;
import io.stacksexplorer.codec.tx.KeyEncoding;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.SpendingCondition;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionEncoder;
import io.stacksexplorer.demo.DemoChain;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which transactions spend an account nonce, and which nonces (replace-by-fee's rivals). */
class NonceSpendingTest {

    @Test
    void aBuiltBitcoinOperationSpendsNoNonceEveryDemoTransactionDoes() {
        List<String> signed = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().stream()
                .flatMap(block -> block.transactions().stream())
                .map(tx -> tx.rawTx())
                .filter(raw -> !isUnsigned(StacksTransaction.decodeHex(raw).origin()))
                .toList();
        assertTrue(signed.size() > 1000, "checked " + signed.size());
        for (String raw : signed) {
            assertTrue(MempoolReplacement.spendsANonce(raw), raw);
        }
        // As ingest.BurnchainOperations builds one: the signed one's payload, unsigned, nonce 0, fee 0.
        StacksTransaction transfer = StacksTransaction.decodeHex(signed.get(signed.size() - 1));
        StacksTransaction unsigned = new StacksTransaction("0x", transfer.version(), transfer.chainId(),
                new SpendingCondition.SingleSig(HashMode.P2PKH, "0x" + "12".repeat(20), BigInteger.ZERO,
                        BigInteger.ZERO, KeyEncoding.COMPRESSED, SpendingCondition.SingleSig.UNSIGNED),
                Optional.empty(), AnchorMode.ANY, PostConditionMode.ALLOW, List.of(), transfer.payload());
        assertFalse(MempoolReplacement.spendsANonce(TransactionEncoder.encodeHex(unsigned)));
    }

    private static boolean isUnsigned(SpendingCondition condition) {
        return condition instanceof SpendingCondition.SingleSig s && s.isUnsigned();
    }

    @Test
    void aSponsoredTransactionSpendsItsSponsorsNonceToo() {
        TxFacts standard = new TxFacts("token_transfer", 4, BigInteger.ONE, "SP1A", false, null, null, null, "SP2B");
        TxFacts sponsored = new TxFacts("contract_call", 4, BigInteger.ONE, "SP1A", true, "SP3S", 9L, "SP3S.c", null);
        assertEquals(List.of(new NonceSlot("SP1A", 4)), NonceSlot.of(standard));
        assertEquals(List.of(new NonceSlot("SP1A", 4), new NonceSlot("SP3S", 9)), NonceSlot.of(sponsored));
    }
}
