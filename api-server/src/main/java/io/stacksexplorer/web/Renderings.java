package io.stacksexplorer.web;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.server.model.ClarityValueHex;

import java.util.Optional;

/**
 * Process-wide caches of what stored bytes render to, so that a hot page is decoded once instead of
 * on every request (decoding Clarity values and raw transactions was most of the CPU time of contract
 * events, transaction lookups and address histories).
 *
 * <p>Every entry is a pure function of its key, which is the stored text itself (a serialized Clarity
 * value, a raw transaction, an ABI's JSON), so no entry can go stale: a reorg flips canonical flags and
 * block columns, and those are read from the row on every request, never from here. That is also why
 * the caches may be shared by several application contexts in one JVM (tests). Bounded by the
 * characters they hold; Caffeine evicts by frequency and recency.
 */
final class Renderings {

    /** About 64 MB of Latin-1 text per cache at most. */
    private static final long MAX_CHARS = 64L << 20;

    private static final Cache<String, String> REPR = Caffeine.newBuilder()
            .maximumWeight(MAX_CHARS)
            .weigher((String hex, String repr) -> hex.length() + repr.length())
            .build();

    private static final Cache<String, SignedPart> SIGNED = Caffeine.newBuilder()
            .maximumWeight(MAX_CHARS)
            // The decoded form holds about as much text again as the raw hex.
            .weigher((String rawTx, SignedPart part) -> 2 * rawTx.length())
            .build();

    private static final Cache<String, Optional<ContractAbi>> ABI = Caffeine.newBuilder()
            .maximumWeight(MAX_CHARS / 4)
            .weigher((String json, Optional<ContractAbi> abi) -> 2 * json.length())
            .build();

    private Renderings() {
    }

    /** The {@code repr} of a serialized Clarity value (hex with {@code 0x}). */
    static String repr(String hex) {
        return REPR.get(hex, h -> ClarityValue.decodeHex(h).repr());
    }

    /** A serialized Clarity value with its {@code repr}. */
    static ClarityValueHex clarity(String hex) {
        return new ClarityValueHex(hex, repr(hex));
    }

    /** The signed part of a raw transaction (hex), decoded and rendered. */
    static SignedPart signedPart(String rawTx) {
        return SIGNED.get(rawTx, SignedPart::decode);
    }

    /** A deployment's ABI JSON, parsed; empty when unreadable. */
    static Optional<ContractAbi> abi(String json) {
        return ABI.get(json, ContractAbi::parse);
    }
}
