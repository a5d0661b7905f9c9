package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.address.StacksAddress;

/**
 * How a spending condition's signer hash was derived. The address version follows stacks-core's
 * {@code address_mainnet()/address_testnet()}: only P2PKH gets the single-sig version; P2WPKH is a
 * P2SH-wrapped script on Bitcoin and so gets the multi-sig version ({@code SM...}/{@code SN...}), like every multi-sig mode.
 */
public enum HashMode {
    P2PKH(0x00, false),
    P2SH(0x01, true),
    P2WPKH(0x02, false),
    P2WSH(0x03, true),
    /** Order-independent multi-sig (epoch 3.0). */
    P2SH_NON_SEQUENTIAL(0x05, true),
    /** Order-independent multi-sig (epoch 3.0). */
    P2WSH_NON_SEQUENTIAL(0x07, true);

    private final int code;
    private final boolean multiSig;

    HashMode(int code, boolean multiSig) {
        this.code = code;
        this.multiSig = multiSig;
    }

    public int code() {
        return code;
    }

    public boolean isMultiSig() {
        return multiSig;
    }

    /** Segwit-style modes, for which the node requires compressed public keys. */
    public boolean requiresCompressedKeys() {
        return this == P2WPKH || this == P2WSH || this == P2WSH_NON_SEQUENTIAL;
    }

    public int addressVersion(TransactionVersion network) {
        boolean mainnet = network == TransactionVersion.MAINNET;
        if (this == P2PKH) {
            return mainnet ? StacksAddress.MAINNET_SINGLE_SIG : StacksAddress.TESTNET_SINGLE_SIG;
        }
        return mainnet ? StacksAddress.MAINNET_MULTI_SIG : StacksAddress.TESTNET_MULTI_SIG;
    }

    static HashMode fromCode(int code, int offset) {
        for (HashMode mode : values()) {
            if (mode.code == code) {
                return mode;
            }
        }
        throw CodecException.at(offset, "unknown spending condition hash mode " + code);
    }
}
