package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;

/** What happens to asset movements no post condition mentions; {@link #apiName()} is {@code post_condition_mode}. */
public enum PostConditionMode {
    ALLOW(1, "allow"),
    DENY(2, "deny"),
    /**
     * SIP-040 (epoch 3.4): deny for the origin's assets, allow for others. Present in current stacks-core;
     * the API name is ours, the mid-2024 peer predates it.
     */
    ORIGINATOR(3, "originator");

    private final int code;
    private final String apiName;

    PostConditionMode(int code, String apiName) {
        this.code = code;
        this.apiName = apiName;
    }

    public int code() {
        return code;
    }

    public String apiName() {
        return apiName;
    }

    static PostConditionMode fromCode(int code, int offset) {
        for (PostConditionMode mode : values()) {
            if (mode.code == code) {
                return mode;
            }
        }
        throw CodecException.at(offset, "unknown post-condition mode " + code);
    }
}
