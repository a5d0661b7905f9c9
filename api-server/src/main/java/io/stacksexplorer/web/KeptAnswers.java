package io.stacksexplorer.web;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.stacksexplorer.ops.AnswerCacheSettings;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers kept by request line, each with what it was made from ({@link Dependency}), and dropped
 * when that changes, and only then: a commit that touches other blocks, transactions, principals or
 * contracts leaves them served. Parts of offset pages ({@link KeptPages}) are kept here too, under
 * keys no request line has, by the same rule and in the same room.
 *
 * <p>How a change and a request that read the database around it never leave a stale answer
 * behind: every change takes the next number of {@link #sequence}; a request notes the number
 * current when it came in ({@code readAt}), before it reads. A change numbered after {@code readAt}
 * may or may not be in what the request read, so its answer is kept only if no dependency of it
 * changed after {@code readAt} ({@link #fresh}); a change numbered before it was applied (this class
 * is told of a change only once it is visible to every later read on this server) and is in the
 * answer. {@link #keep} checks before and after indexing the answer and {@link #changed} records the
 * change before it looks in the index, so one of the two always sees the other.
 *
 * <p>Changes are remembered ({@code changedAt}) only for requests still in flight: past
 * {@value #REMEMBERED} of them the record is cleared and {@code floor} moves up, which refuses to
 * keep the answer of any request that came in before (it is answered, only not kept).
 */
@Singleton
final class KeptAnswers {

    /** What kind of thing an answer was made from; the id says which one (none for TIP, REORG, ANY, POSITIONS). */
    enum Kind {
        /** The chain tip and its microblocks: {@code /extended}, the status, the latest block. */
        TIP,
        /** Which block is canonical at a height: any block by height or hash. */
        REORG,
        /** Something this class cannot name: dropped at every change. */
        ANY,
        /** A transaction's state. */
        TX,
        /** A principal's mined history (address and principal transaction pages). */
        PRINCIPAL,
        /** A principal's pending transactions (mempool pages). */
        MEMPOOL,
        /** A contract's deployment attempts, mined or pending (contract status). */
        CONTRACT,
        /** A contract's log events. */
        LOGS,
        /**
         * Where the served rows sit in the position-numbered lists (V10): moved only by a reorg and by
         * microblocks coming, leaving or settled; a block on the tip appends above them
         * ({@link KeptPages}).
         */
        POSITIONS
    }

    /** One thing an answer was made from. */
    record Dependency(Kind kind, String id) {

        static Dependency of(Kind kind) {
            return new Dependency(kind, "");
        }
    }

    /** A kept answer ({@link HttpCaching.Rendered}) or page part ({@link #part}), and what it weighs. */
    private record Kept(Object value, int weight, List<Dependency> made) {
    }

    /** Starts the key of every page part: no request line (they start with a slash) can. */
    private static final char PART = '\u0000';

    static final int REMEMBERED = 100_000;

    private final Cache<String, Kept> kept;
    /** For each kind and id, the keys (request lines, page parts) of the kept values made from it. */
    private final Map<Kind, ConcurrentHashMap<String, Set<String>>> index = new EnumMap<>(Kind.class);
    /** The number of the last change of each dependency changed since {@link #floor} moved. */
    private final ConcurrentHashMap<Dependency, Long> changedAt = new ConcurrentHashMap<>();
    /** The number of the last change of every dependency of a kind at once. */
    private final Map<Kind, AtomicLong> kindChangedAt = new EnumMap<>(Kind.class);
    private final AtomicLong sequence = new AtomicLong();
    /** Answers of requests that came in before this number are not kept. */
    private volatile long floor;

    @Inject
    KeptAnswers(AnswerCacheSettings settings) {
        this(settings.getMaxBytes());
    }

    KeptAnswers(long maxBytes) {
        for (Kind kind : Kind.values()) {
            index.put(kind, new ConcurrentHashMap<>());
            kindChangedAt.put(kind, new AtomicLong());
        }
        this.kept = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, Kept k) -> key.length() + k.weight())
                // Runs on the evicting thread, so the index never outgrows the answers by much.
                .evictionListener((String key, Kept k, RemovalCause cause) -> {
                    if (key != null && k != null) {
                        unindex(key, k.made());
                    }
                })
                .build();
    }

    /** The number of the last change: a request notes it when it comes in. */
    long sequence() {
        return sequence.get();
    }

    /** The kept answer for the request line, or null. */
    HttpCaching.Rendered get(String requestLine) {
        Kept k = kept.getIfPresent(requestLine);
        return k == null ? null : (HttpCaching.Rendered) k.value();
    }

    /** Keeps an answer read after change {@code readAt}, unless something it was made from changed since. */
    void keep(String requestLine, long readAt, List<Dependency> made, HttpCaching.Rendered answer) {
        put(requestLine, readAt, made, new Kept(answer, answer.heldBytes(), made));
    }

    /** The page part kept under {@code key} ({@link #keepPart}), or null. */
    Object part(String key) {
        Kept k = kept.getIfPresent(PART + key);
        return k == null ? null : k.value();
    }

    /**
     * Keeps a part of a page (a list's count, the rendered rows of a window of its positions;
     * {@link KeptPages}) read after change {@code readAt}, under the same rule and in the same bounded
     * room as the answers.
     *
     * @param weight about how many bytes {@code value} holds
     */
    void keepPart(String key, long readAt, List<Dependency> made, Object value, int weight) {
        put(PART + key, readAt, made, new Kept(value, weight, made));
    }

    private void put(String key, long readAt, List<Dependency> made, Kept value) {
        if (!fresh(readAt, made)) {
            return;
        }
        kept.put(key, value);
        for (Dependency d : made) {
            index.get(d.kind()).compute(d.id(), (id, lines) -> {
                Set<String> set = lines != null ? lines : ConcurrentHashMap.newKeySet();
                set.add(key);
                return set;
            });
        }
        // A change recorded between the first check and the index did not find this value there.
        if (!fresh(readAt, made)) {
            kept.invalidate(key);
        }
    }

    private boolean fresh(long readAt, List<Dependency> made) {
        if (readAt < floor) {
            return false;
        }
        for (Dependency d : made) {
            if (kindChangedAt.get(d.kind()).get() > readAt || changedAt.getOrDefault(d, 0L) > readAt) {
                return false;
            }
        }
        return true;
    }

    /**
     * Keeps {@code answer}, kept for the request line, as its gzip coding alone from now on
     * ({@link HttpCaching.Rendered#compact}); nothing when the line's answer is gone or another by now.
     */
    void compact(String requestLine, HttpCaching.Rendered answer, Compression compression) {
        if (answer.isCompact()) {
            return;
        }
        HttpCaching.Rendered compact = answer.compact(compression);
        // A replacement, not an eviction: the index keeps the line under its dependencies.
        kept.asMap().computeIfPresent(requestLine,
                (line, k) -> k.value() == answer ? new Kept(compact, compact.heldBytes(), k.made()) : k);
    }

    /** These things changed: the answers made from them are dropped. */
    void changed(Collection<Dependency> things) {
        if (things.isEmpty()) {
            return;
        }
        if (changedAt.size() > REMEMBERED) {
            forgetChanges();
        }
        long number = sequence.incrementAndGet();
        for (Dependency d : things) {
            changedAt.put(d, number);
        }
        for (Dependency d : things) {
            Set<String> lines = index.get(d.kind()).remove(d.id());
            if (lines != null) {
                kept.invalidateAll(lines);
            }
        }
    }

    /** Every thing of this kind may have changed (this server did not work out which). */
    void changedAll(Kind kind) {
        kindChangedAt.get(kind).set(sequence.incrementAndGet());
        ConcurrentHashMap<String, Set<String>> byId = index.get(kind);
        for (String id : byId.keySet()) {
            Set<String> lines = byId.remove(id);
            if (lines != null) {
                kept.invalidateAll(lines);
            }
        }
    }

    /** Anything may have changed: nothing kept before is served, nothing in flight is kept. */
    void changedEverything() {
        floor = sequence.incrementAndGet();
        kept.invalidateAll();
        index.values().forEach(Map::clear);
        changedAt.clear();
    }

    /** Whether any kept answer was made from a thing of this kind (else working out which changed is moot). */
    boolean anyKept(Kind kind) {
        return !index.get(kind).isEmpty();
    }

    long size() {
        return kept.estimatedSize();
    }

    /** What the kept values weigh together (their keys and the bytes each answer or page part holds). */
    long weighedBytes() {
        return kept.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    private void forgetChanges() {
        // The floor first: a request checking between the two steps is refused, never wrongly kept.
        floor = sequence.incrementAndGet();
        changedAt.clear();
    }

    private void unindex(String requestLine, List<Dependency> made) {
        for (Dependency d : made) {
            index.get(d.kind()).computeIfPresent(d.id(), (id, lines) -> {
                lines.remove(requestLine);
                return lines.isEmpty() ? null : lines;
            });
        }
    }
}
