package io.stacksexplorer.write;

/** Derives the indexed columns of a raw transaction ({@code 0x}-hex). Throws on malformed bytes. */
@FunctionalInterface
public interface TxDecoder {
    TxFacts decode(String rawTxHex);

    /** The facts a caller decoded already ({@code known}, e.g. the ingest while checking a payload), else decoded now. */
    default TxFacts factsOf(String rawTxHex, TxFacts known) {
        return known != null ? known : decode(rawTxHex);
    }
}
