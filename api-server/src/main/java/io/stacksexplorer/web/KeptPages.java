package io.stacksexplorer.web;

import io.stacksexplorer.ops.CommitWatch;
import io.stacksexplorer.ops.DatabaseCircuit;
import io.stacksexplorer.web.KeptAnswers.Dependency;
import io.stacksexplorer.web.KeptAnswers.Kind;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Offset pages of a position-numbered list kept in two parts behind their route, so that a page
 * survives the list growing: the list's count, kept until the list changes, and the page's rows,
 * rendered ({@link PageSlice}), by the window of positions they sit at, kept until positions move
 * ({@link Kind#POSITIONS}: a reorg, microblocks coming, leaving or settled). Used for a contract's log
 * events ({@code /extended/v1/contract/{id}/events}) and a principal's history
 * ({@code /extended/v2/addresses/{principal}/transactions}), by offset.
 *
 * <p>Why: the answer cache keeps a whole answer by request line, and the answer at offset k holds the
 * rows at positions (count - k - limit, count - k] and the count. A contract that logs or a principal
 * that transacts moves every one of its offset pages with each new row (one place down, the count
 * up), so each commit that touches it dropped all of them and the route ran at its uncached rate
 * until they were asked again (issue 48: 0.35-0.47 of the idle rate under a busy feed for contract
 * events, 0.22-0.28 for an active address's deep pages). The rows did not change: served rows are
 * numbered densely in chain order and a block on the tip appends above them (write.Positions). After
 * a new row the page at offset k is the one that was at offset k - 1, already rendered; only the count
 * is read again, once per change of the list, with the page that asks first, and the page's answer is
 * spliced from the kept rows and its own envelope.
 *
 * <p>Same rule as the answers ({@link KeptAnswers}): a request reads the change number when it
 * starts, takes kept parts only while every seen commit is applied ({@link AnswerInvalidation}), and
 * a part it read from the database is kept only if nothing it depends on changed since. The parts
 * share the answers' room ({@code stacks.answer-cache.max-bytes}). On H2 and with the cache switched
 * off nothing is kept.
 *
 * <p>Count and rows are kept apart, each from its own statement's snapshot: between a commit that
 * renumbers positions becoming visible and its application (the watch interval on a standby, moments
 * on the writer), one request can keep a part read after it while the other is still from before. So
 * both carry the positions' version of their snapshot (chain_state, V210, moved by every renumbering)
 * and a page joins a count only with rows of the same version: a page never combines two states.
 */
@Singleton
class KeptPages {

    private static final List<Dependency> POSITIONS = List.of(Dependency.of(Kind.POSITIONS));

    private final CommitWatch commits;
    private final DatabaseCircuit circuit;
    private final KeptAnswers kept;
    private final AnswerInvalidation invalidation;
    /** Pages answered from kept parts, and pages read from the database (a metric, AnswerCacheMetrics). */
    final LongAdder hits = new LongAdder();
    final LongAdder misses = new LongAdder();

    KeptPages(CommitWatch commits, DatabaseCircuit circuit, KeptAnswers kept, AnswerInvalidation invalidation) {
        this.commits = commits;
        this.circuit = circuit;
        this.kept = kept;
        this.invalidation = invalidation;
    }

    /** A request's view of the kept parts, fixed when it starts, before it reads anything. */
    Reading begin() {
        long version = commits.version();
        boolean usable = version != CommitWatch.UNKNOWN && !circuit.knownDown();
        // The change number first, as AnswerCache does: whatever is applied by now is in what this reads.
        long readAt = kept.sequence();
        return new Reading(usable && invalidation.current(version), usable, readAt);
    }

    /**
     * @param serve whether kept parts may be served (every seen commit applied)
     * @param keep  whether parts read now may be kept (they are, unless something changed meanwhile)
     */
    final class Reading {

        private final boolean serve;
        private final boolean keep;
        private final long readAt;

        private Reading(boolean serve, boolean keep, long readAt) {
            this.serve = serve;
            this.keep = keep;
            this.readAt = readAt;
        }

        /**
         * The kept count of list {@code id} of {@code kind}, or null. A page asks for its count first
         * and, when it has one, for its rows ({@link #slice}); either missing counts the page as read
         * from the database.
         */
        <T> T count(Kind kind, String id, Class<T> type) {
            T count = serve ? type.cast(kept.part(countKey(kind, id))) : null;
            if (count == null) {
                misses.increment();
            }
            return count;
        }

        /** Keeps the count of a list until the list changes. */
        void keepCount(Kind kind, String id, Object count) {
            if (keep) {
                kept.keepPart(countKey(kind, id), readAt, List.of(new Dependency(kind, id)), count, 64);
            }
        }

        /**
         * The kept rendering of the rows at positions (top - limit, top] of a list, read at positions
         * version {@code version} (that of the count the page uses), or null; either way the page is
         * counted, as answered from kept parts or read.
         */
        <T> T slice(Kind kind, String id, long version, long top, int limit, Class<T> type) {
            T slice = keptSlice(kind, id, version, top, limit, type);
            (slice != null ? hits : misses).increment();
            return slice;
        }

        /**
         * As {@link #slice}, without counting the page: for a page that read its count and rows (counted
         * then) and looks for their rendering.
         */
        <T> T keptSlice(Kind kind, String id, long version, long top, int limit, Class<T> type) {
            return serve ? type.cast(kept.part(sliceKey(kind, id, version, top, limit))) : null;
        }

        /** Whether parts read now are kept: else rendering a page's parts for keeping is waste. */
        boolean keeps() {
            return keep;
        }

        /**
         * Keeps the rendering of the rows at positions (top - limit, top] of a list until positions
         * move. Pages that start below the first position are not kept (empty, and cheap to read).
         *
         * @param weight about how many bytes the rendering holds
         */
        void keepSlice(Kind kind, String id, long version, long top, int limit, Object rows, int weight) {
            if (keep && top > 0) {
                kept.keepPart(sliceKey(kind, id, version, top, limit), readAt, POSITIONS, rows, weight);
            }
        }
    }

    private static String countKey(Kind kind, String id) {
        return "count " + kind + ' ' + id;
    }

    private static String sliceKey(Kind kind, String id, long version, long top, int limit) {
        return "slice " + kind + ' ' + id + ' ' + version + ' ' + top + ' ' + limit;
    }
}
