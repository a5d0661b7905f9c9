package io.stacksexplorer.write;

/** How a mined transaction ended, with the names the API serves. */
public enum TxOutcome {
    SUCCESS("success"),
    ABORT_BY_RESPONSE("abort_by_response"),
    ABORT_BY_POST_CONDITION("abort_by_post_condition");

    private final String apiName;

    TxOutcome(String apiName) {
        this.apiName = apiName;
    }

    public String apiName() {
        return apiName;
    }

    /** The node's status strings: {@code success}, {@code abort_by_response}, {@code abort_by_post_condition}. */
    public static TxOutcome fromNode(String status) {
        for (TxOutcome outcome : values()) {
            if (outcome.apiName.equals(status)) {
                return outcome;
            }
        }
        throw new IllegalArgumentException("unknown transaction status: " + status);
    }
}
