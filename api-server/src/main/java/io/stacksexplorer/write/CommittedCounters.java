package io.stacksexplorer.write;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import java.util.EnumMap;
import java.util.Map;

/**
 * The committed values of the position counters ({@code principal_stats.tx_count},
 * {@code contract_log_stats.event_count}) of recently written principals and contracts, so that a
 * block does not read back the counters of the busy principals the previous blocks just wrote
 * (before: one bulk query per block, 9 % of the database's time during a replay).
 *
 * <p>Correct because this process is the only writer (see {@link WriteSql}) and entries are added
 * only after their database transaction committed ({@link #commit}); a rollback leaves the cache as
 * it was, and emptying the derived tables empties it. Bounded: a principal not cached is read from
 * the database as before.
 */
final class CommittedCounters {

    private static final long MAX_KEYS_PER_KIND = 200_000;

    private final Map<Positions.Kind, Cache<String, Long>> byKind = new EnumMap<>(Positions.Kind.class);

    CommittedCounters() {
        for (Positions.Kind kind : Positions.Kind.values()) {
            byKind.put(kind, Caffeine.newBuilder().maximumSize(MAX_KEYS_PER_KIND).build());
        }
    }

    /** The committed counter of {@code key}, or null when not cached. */
    Long get(Positions.Kind kind, String key) {
        return byKind.get(kind).getIfPresent(key);
    }

    /** Records the counters a transaction wrote (or read), once it committed. */
    void commit(Map<Positions.Kind, Map<String, Long>> values) {
        for (Map.Entry<Positions.Kind, Map<String, Long>> e : values.entrySet()) {
            byKind.get(e.getKey()).putAll(e.getValue());
        }
    }

    /**
     * The committed chain tip, or null when not known: read (or moved) by a transaction that then
     * committed. Each payload is a transaction of its own on the observer path, and asking
     * chain_state for the tip was a round trip per block and per mempool delivery.
     */
    private volatile Statements.Tip tip;

    Statements.Tip tip() {
        return tip;
    }

    void commitTip(Statements.Tip committed) {
        tip = committed;
    }

    /**
     * What a committed transaction knew of two look-ups that find nothing on almost every block: no
     * payload waits for its parent ({@link Statements#noDeferredPayloads}, null when not known) and
     * no unanchored rows are served ({@link Statements#noServedUnanchored}). On the observer path each
     * block is a transaction of its own, and asking both was two round trips and a transaction per
     * block (the waiting-payloads check ran in one of its own after the block's).
     */
    private volatile Boolean noDeferredPayloads;
    private volatile boolean noServedUnanchored;

    Boolean noDeferredPayloads() {
        return noDeferredPayloads;
    }

    boolean noServedUnanchored() {
        return noServedUnanchored;
    }

    void commitLookups(Boolean noDeferred, boolean noUnanchored) {
        noDeferredPayloads = noDeferred;
        noServedUnanchored = noUnanchored;
    }

    /**
     * The PoX unlock heights chain_state holds as this writer last set them (null where not known).
     * A node repeats them in every block payload: setting them again was an update per block.
     */
    private volatile PoxUnlockHeights pox = PoxUnlockHeights.NONE;

    PoxUnlockHeights pox() {
        return pox;
    }

    void commitPox(PoxUnlockHeights committed) {
        pox = committed;
    }

    void clear() {
        byKind.values().forEach(Cache::invalidateAll);
        tip = null;
        pox = PoxUnlockHeights.NONE;
        noDeferredPayloads = null;
        noServedUnanchored = false;
    }
}
