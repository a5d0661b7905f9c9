package io.stacksexplorer.write;

/** The PoX unlock heights a block payload reports; null when the node does not send one. */
public record PoxUnlockHeights(Long v1, Long v2, Long v3) {

    public static final PoxUnlockHeights NONE = new PoxUnlockHeights(null, null, null);
}
