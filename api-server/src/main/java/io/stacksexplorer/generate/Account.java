package io.stacksexplorer.generate;

import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;

/**
 * A signing account of the generated chain. The generator keeps a fixed pool of these (memory does
 * not grow with the chain); balances are what the generator believes the account holds, so that
 * nobody spends what they do not have.
 */
final class Account {

    final StacksAddress address;
    /** The c32 form, computed once: encoding it costs two SHA-256 per use. */
    final String id;
    final String hash160Hex;
    final ClarityValue principal;
    /** Signs with a 2-of-3 multi-sig spending condition ({@code SM…} address). */
    final boolean multiSig;
    long nonce;
    long stx;
    long token;

    Account(StacksAddress address) {
        this.address = address;
        this.id = address.toString();
        this.hash160Hex = address.hash160Hex();
        this.principal = new ClarityValue.StandardPrincipal(address);
        this.multiSig = address.version() == StacksAddress.MAINNET_MULTI_SIG;
    }
}
