package io.stacksexplorer.codec.tx;

/**
 * A microblock header as carried by a poison-microblock transaction. {@code serialized} is the whole
 * header as {@code 0x}-hex, which is what the Stacks API shows as {@code microblock_header_1/2}.
 */
public record MicroblockHeader(int version, int sequence, String prevBlock, String txMerkleRoot,
                               String signature, String serialized) {
}
