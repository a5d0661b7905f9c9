package io.stacksexplorer.write;

/** How a mined transaction ended, with the names the API serves. */
public enum TxOutcome {
    SUCCESS("success"),
    ABORT_BY_RESPONSE("abort_by_response"),
    ABORT_BY_POST_CONDITION("abort_by_post_condition"),
    /**
     * Epoch 4.0: the block carries a transaction the node deems problematic without running it; result
     * {@code (err none)}, no events, zero cost.
     */
    PROBLEMATIC_SKIPPED("problematic_skipped");

    private final String apiName;

    TxOutcome(String apiName) {
        this.apiName = apiName;
    }

    public String apiName() {
        return apiName;
    }

    /** The outcome of a node's status string, or {@code null} for one this build does not know yet. */
    public static TxOutcome fromNodeOrNull(String status) {
        for (TxOutcome outcome : values()) {
            if (outcome.apiName.equals(status)) {
                return outcome;
            }
        }
        return null;
    }
}
