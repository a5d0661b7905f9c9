package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;

/** Why a Nakamoto tenure changed. Codes 2..6 are SIP-034's per-dimension extensions (API names ours). */
public enum TenureChangeCause {
    BLOCK_FOUND(0, "block_found"),
    EXTENDED(1, "extended"),
    EXTENDED_RUNTIME(2, "extended_runtime"),
    EXTENDED_READ_COUNT(3, "extended_read_count"),
    EXTENDED_READ_LENGTH(4, "extended_read_length"),
    EXTENDED_WRITE_COUNT(5, "extended_write_count"),
    EXTENDED_WRITE_LENGTH(6, "extended_write_length");

    private final int code;
    private final String apiName;

    TenureChangeCause(int code, String apiName) {
        this.code = code;
        this.apiName = apiName;
    }

    public int code() {
        return code;
    }

    public String apiName() {
        return apiName;
    }

    static TenureChangeCause fromCode(int code, int offset) {
        for (TenureChangeCause cause : values()) {
            if (cause.code == code) {
                return cause;
            }
        }
        throw CodecException.at(offset, "unknown tenure change cause " + code);
    }
}
