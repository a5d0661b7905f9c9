package io.stacksexplorer.web;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;
import io.stacksexplorer.ops.CommitWatch;
import io.stacksexplorer.ops.DatabaseCircuit;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Successful answers kept by their request line (path and query, as sent) until what they were made
 * from changes ({@link KeptAnswers}, {@link AnswerDependencies}): a request that asks again what was
 * asked before is answered without a statement, without the route's parameter binding and
 * validation, and without rendering, while commits that touch other blocks, transactions,
 * principals or contracts go on.
 *
 * <p>Why: for the cheap routes (a block by hash, a contract's status, the first page of a contract's
 * events) most of a request's cost was the database round trip, not the route's code; the same
 * question is asked again and again (every explorer polls the latest block and the busy contracts);
 * and on a live chain most answers outlive many commits. docs/performance.md ("Reads under live
 * ingest") has the figures.
 *
 * <p>What it keeps: only what {@link HttpCaching} renders as JSON with status 200, stored there
 * ({@link #keep}) with the change number this filter read when the request came in, so an answer
 * whose inputs changed while it was computed is not kept. Errors, streams and other bodies are not
 * kept. The kept body goes back through {@link HttpCaching}, which chooses its representation (gzip),
 * tag and 304 per request as for any other answer; CORS and the metrics filters run outside this one
 * and see a kept answer as any other. Runs innermost of the filters ({@link ServerFilterPhase#LAST}),
 * after {@link io.stacksexplorer.ops.SchemaGate} and {@link BooleanQueryFilter}; it answers nothing
 * while {@link DatabaseCircuit} knows the database is down, so an outage is 503 as without it.
 *
 * <p>How fresh: nothing kept is served between a commit and the moment {@link AnswerInvalidation}
 * has applied it (a few milliseconds): this process's own commits are seen before the writer
 * returns; another process's (the primary a standby replays) within the watch interval (50 ms).
 */
@ServerFilter("/extended/**")
class AnswerCache implements Ordered {

    /**
     * Answers this long or longer are kept compressed once asked again: the large ones (lookups of many
     * transactions, pages of 50) are the ones that did not fit the cache as JSON, and inflating one on a
     * hit (about a tenth of a millisecond for 50 KB) costs far less than the route (a millisecond and
     * statements); a gzip client gets the kept bytes as they are. Compressing is the costly step (half a
     * millisecond for 40 KB), so it waits for the first hit: an answer dropped before anyone asks for it
     * again (a page of an address that is active right now) is never compressed. Smaller answers stay
     * JSON, served without a copy.
     */
    static final int COMPACT_FROM = 8 * 1024;

    /** The request attribute holding the request's key, dependencies and the change number read when it came in. */
    static final String PENDING = AnswerCache.class.getName() + ".pending";

    /** A request the route answers: where it is kept, what it is made from, after which change it reads. */
    private record Pending(String key, List<KeptAnswers.Dependency> made, long readAt) {
    }

    private final CommitWatch commits;
    private final DatabaseCircuit circuit;
    private final KeptAnswers kept;
    private final AnswerInvalidation invalidation;
    private final AnswerDependencies dependencies;
    private final Compression compression;
    /** Requests answered from the cache, and requests it let through to their route while it applies. */
    final LongAdder hits = new LongAdder();
    final LongAdder misses = new LongAdder();

    AnswerCache(CommitWatch commits, DatabaseCircuit circuit, KeptAnswers kept, AnswerInvalidation invalidation,
                AnswerDependencies dependencies, Compression compression) {
        this.commits = commits;
        this.circuit = circuit;
        this.kept = kept;
        this.invalidation = invalidation;
        this.dependencies = dependencies;
        this.compression = compression;
    }

    @Override
    public int getOrder() {
        return ServerFilterPhase.LAST.order();
    }

    /** The kept answer (its body a {@link HttpCaching.Rendered}), or null to let the route answer. */
    @RequestFilter
    @Nullable
    MutableHttpResponse<?> answerKept(HttpRequest<?> request) {
        HttpMethod method = request.getMethod();
        if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
            return null;
        }
        long version = commits.version();
        if (version == CommitWatch.UNKNOWN || circuit.knownDown()) {
            return null;
        }
        // Read before anything else: the answer the route computes is read after this change.
        long readAt = kept.sequence();
        String key = request.getUri().toString();
        if (invalidation.current(version)) {
            HttpCaching.Rendered answer = kept.get(key);
            if (answer != null) {
                hits.increment();
                if (answer.length() >= COMPACT_FROM) {
                    kept.compact(key, answer, compression);
                }
                return HttpResponse.ok(answer);
            }
        }
        misses.increment();
        request.setAttribute(PENDING, new Pending(key, dependencies.of(request), readAt));
        return null;
    }

    /** Keeps a successful answer rendered for this request, unless what it was made from changed meanwhile. */
    void keep(HttpRequest<?> request, HttpCaching.Rendered answer) {
        request.getAttribute(PENDING, Pending.class)
                .ifPresent(p -> kept.keep(p.key(), p.readAt(), p.made(), answer));
    }
}
