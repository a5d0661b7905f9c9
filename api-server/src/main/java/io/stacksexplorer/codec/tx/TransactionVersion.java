package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;

/** The first byte of a transaction; it, not the chain id, decides which address versions the signers get. */
public enum TransactionVersion {
    MAINNET(0x00),
    TESTNET(0x80);

    private final int code;

    TransactionVersion(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    static TransactionVersion fromCode(int code, int offset) {
        for (TransactionVersion version : values()) {
            if (version.code == code) {
                return version;
            }
        }
        throw CodecException.at(offset, String.format("unknown transaction version 0x%02x", code));
    }
}
