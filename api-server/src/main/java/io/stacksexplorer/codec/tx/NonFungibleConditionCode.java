package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;

/** Whether a non-fungible token leaves the principal; {@link #apiName()} is {@code condition_code}. */
public enum NonFungibleConditionCode {
    SENT(0x10, "sent"),
    NOT_SENT(0x11, "not_sent"),
    /** SIP-040 (epoch 3.4): always satisfied. In current stacks-core; the API name is ours. */
    MAYBE_SENT(0x12, "maybe_sent");

    private final int code;
    private final String apiName;

    NonFungibleConditionCode(int code, String apiName) {
        this.code = code;
        this.apiName = apiName;
    }

    public int code() {
        return code;
    }

    public String apiName() {
        return apiName;
    }

    static NonFungibleConditionCode fromCode(int code, int offset) {
        for (NonFungibleConditionCode value : values()) {
            if (value.code == code) {
                return value;
            }
        }
        throw CodecException.at(offset, String.format("unknown non-fungible condition code 0x%02x", code));
    }
}
