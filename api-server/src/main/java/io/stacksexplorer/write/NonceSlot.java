package io.stacksexplorer.write;

import java.util.List;

/**
 * One account nonce a transaction spends. A transaction spends its origin's nonce and, when
 * sponsored, its sponsor's too (the node checks and advances both), so two transactions that
 * share a slot can never both be mined: that is what replace-by-fee means ({@link MempoolReplacement}).
 */
record NonceSlot(String address, long nonce) {

    /** The slots {@code facts} spends: the origin's, then the sponsor's when sponsored and known. */
    static List<NonceSlot> of(TxFacts facts) {
        NonceSlot origin = new NonceSlot(facts.senderAddress(), facts.nonce());
        if (facts.sponsored() && facts.sponsorAddress() != null && facts.sponsorNonce() != null) {
            return List.of(origin, new NonceSlot(facts.sponsorAddress(), facts.sponsorNonce()));
        }
        return List.of(origin);
    }

    /** The slots of a stored row ({@code sponsorNonce} null: written before it was stored, or not sponsored). */
    static List<NonceSlot> of(String sender, long nonce, String sponsor, Long sponsorNonce) {
        NonceSlot origin = new NonceSlot(sender, nonce);
        return sponsor == null || sponsorNonce == null ? List.of(origin)
                : List.of(origin, new NonceSlot(sponsor, sponsorNonce));
    }
}
