package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;

/** Where a transaction may be mined; {@link #apiName()} is the Stacks API's {@code anchor_mode}. */
public enum AnchorMode {
    ON_CHAIN_ONLY(1, "on_chain_only"),
    OFF_CHAIN_ONLY(2, "off_chain_only"),
    ANY(3, "any");

    private final int code;
    private final String apiName;

    AnchorMode(int code, String apiName) {
        this.code = code;
        this.apiName = apiName;
    }

    public int code() {
        return code;
    }

    public String apiName() {
        return apiName;
    }

    static AnchorMode fromCode(int code, int offset) {
        for (AnchorMode mode : values()) {
            if (mode.code == code) {
                return mode;
            }
        }
        throw CodecException.at(offset, "unknown anchor mode " + code);
    }
}
