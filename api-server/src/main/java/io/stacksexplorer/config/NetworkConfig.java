package io.stacksexplorer.config;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * The network the server indexes, from {@code STACKS_CHAIN_ID} as the peer names it:
 * {@code 0x00000001} is mainnet, {@code 0x80000000} testnet. Addresses in requests are validated
 * for this network.
 */
@ConfigurationProperties("stacks")
public class NetworkConfig {

    public static final long MAINNET_CHAIN_ID = 0x00000001L;
    public static final long TESTNET_CHAIN_ID = 0x80000000L;

    private String chainId = "0x00000001";

    public String getChainId() {
        return chainId;
    }

    public void setChainId(String chainId) {
        long id = parse(chainId);
        if (id != MAINNET_CHAIN_ID && id != TESTNET_CHAIN_ID) {
            throw new IllegalArgumentException("STACKS_CHAIN_ID must be 0x00000001 (mainnet) or 0x80000000 (testnet), got "
                    + chainId);
        }
        this.chainId = chainId;
    }

    public boolean isMainnet() {
        return parse(chainId) == MAINNET_CHAIN_ID;
    }

    private static long parse(String text) {
        String t = text.trim().toLowerCase();
        return t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
    }
}
