package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;

/** Whether a PoX operation happens (SIP-044, epoch 4.0); {@link #apiName()} is {@code condition_code}. */
public enum PoxConditionCode {
    NOT_PERFORMED(0x30, "not_performed"),
    MAYBE_PERFORMED(0x31, "maybe_performed"),
    PERFORMED(0x32, "performed");

    private final int code;
    private final String apiName;

    PoxConditionCode(int code, String apiName) {
        this.code = code;
        this.apiName = apiName;
    }

    public int code() {
        return code;
    }

    public String apiName() {
        return apiName;
    }

    static PoxConditionCode fromCode(int code, int offset) {
        for (PoxConditionCode value : values()) {
            if (value.code == code) {
                return value;
            }
        }
        throw CodecException.at(offset, String.format("unknown PoX condition code 0x%02x", code));
    }
}
