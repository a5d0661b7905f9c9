package io.stacksexplorer.write;

/** Derives the indexed columns of a raw transaction ({@code 0x}-hex). Throws on malformed bytes. */
@FunctionalInterface
public interface TxDecoder {
    TxFacts decode(String rawTxHex);
}
