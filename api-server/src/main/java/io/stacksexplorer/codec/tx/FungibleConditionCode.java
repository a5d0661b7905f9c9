package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;

/** Comparison of the amount sent in STX and fungible-token post conditions; {@link #apiName()} is {@code condition_code}. */
public enum FungibleConditionCode {
    SENT_EQUAL_TO(0x01, "sent_equal_to"),
    SENT_GREATER_THAN(0x02, "sent_greater_than"),
    SENT_GREATER_THAN_OR_EQUAL_TO(0x03, "sent_greater_than_or_equal_to"),
    SENT_LESS_THAN(0x04, "sent_less_than"),
    SENT_LESS_THAN_OR_EQUAL_TO(0x05, "sent_less_than_or_equal_to");

    private final int code;
    private final String apiName;

    FungibleConditionCode(int code, String apiName) {
        this.code = code;
        this.apiName = apiName;
    }

    public int code() {
        return code;
    }

    public String apiName() {
        return apiName;
    }

    static FungibleConditionCode fromCode(int code, int offset) {
        for (FungibleConditionCode value : values()) {
            if (value.code == code) {
                return value;
            }
        }
        throw CodecException.at(offset, String.format("unknown fungible condition code 0x%02x", code));
    }
}
