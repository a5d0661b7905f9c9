package io.stacksexplorer.generate;

import java.util.Locale;

/**
 * Which consensus rules the generated blocks follow. Mainnet ran Stacks 2.x until epoch 3.0
 * (Nakamoto) activated in October 2024; {@link #MIXED} goes the same way within one log.
 */
public enum Era {
    /** Stacks 2.x only: one block per Bitcoin block, microblocks, short forks. */
    TWO("2"),
    /** Nakamoto only: tenures of many small blocks, seconds apart, signed by the signers; no microblocks. */
    THREE("3"),
    /** 2.x blocks, then the epoch-3.0 activation at a burn height, then Nakamoto blocks. */
    MIXED("mixed");

    private final String option;

    Era(String option) {
        this.option = option;
    }

    /** The {@code --era} value: {@code 2}, {@code 3} or {@code mixed}. */
    public String option() {
        return option;
    }

    public static Era parse(String text) {
        for (Era era : values()) {
            if (era.option.equals(text.toLowerCase(Locale.ROOT))) {
                return era;
            }
        }
        throw new IllegalArgumentException("--era must be 2, 3 or mixed, not " + text);
    }
}
