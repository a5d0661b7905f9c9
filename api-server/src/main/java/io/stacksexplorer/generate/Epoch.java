package io.stacksexplorer.generate;

/**
 * The Stacks epochs a generated chain goes through, in mainnet order. Epochs 3.0 to 3.2 changed
 * nothing a node event shows, so they are one step here. Burn heights are the generator's own; the
 * order and what each epoch brings follow mainnet (activation burn heights in {@link #mainnetHeight}).
 * A {@link Era#MIXED} log enters each later epoch once the share of its transactions in
 * {@link #mixedFromPerMille} is mined, so every log keeps its earlier part unchanged.
 */
enum Epoch {
    /** Stacks 2.x (up to 2.5): microblocks, one block per burn block. */
    TWO("2.x", -1, 0),
    /** Nakamoto (3.0, then 3.1 and 3.2): tenures of small signed blocks. */
    NAKAMOTO("3.0", 867_867L, 300),
    /** SIP-034: a tenure extends by the budget dimension it ran out of (causes 2-6). */
    E3_3("3.3", 923_222L, 700),
    /** SIP-040: Clarity 5, post-condition mode originator, NFT condition maybe_sent; aborted transactions send no events. */
    E3_4("3.4", 943_333L, 800),
    /** pox-5 and SIP-044: Clarity 6, staking and pox post conditions, problematic_skipped transactions. */
    E4_0("4.0", 960_230L, 900);

    final String name;
    final long mainnetHeight;
    /** Per mille of a mixed log's transactions mined before this epoch starts. */
    final int mixedFromPerMille;

    Epoch(String name, long mainnetHeight, int mixedFromPerMille) {
        this.name = name;
        this.mainnetHeight = mainnetHeight;
        this.mixedFromPerMille = mixedFromPerMille;
    }

    /** The node of this epoch writes today's (2026) {@code /new_block} shape. */
    boolean today() {
        return compareTo(E3_3) >= 0;
    }

    boolean atLeast(Epoch other) {
        return compareTo(other) >= 0;
    }

    Epoch next() {
        return this == E4_0 ? null : values()[ordinal() + 1];
    }
}
