package io.stacksexplorer.web;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;
import io.stacksexplorer.ops.AnswerCacheSettings;
import io.stacksexplorer.ops.CommitWatch;
import io.stacksexplorer.ops.DatabaseCircuit;

/**
 * Successful answers kept by their request line (path and query, as sent) while the database's
 * committed state is the one they were read from ({@link CommitWatch#version()}): a request that
 * asks again what was asked before, with nothing committed in between, is answered without a
 * statement, without the route's parameter binding and validation, and without rendering.
 *
 * <p>Why: for the cheap routes (a block by hash, a contract's status, the first page of a contract's
 * events) most of a request's cost was the database round trip (the statement, its socket writes and
 * wake-ups on both sides and PostgreSQL's own work), not the route's code; the same question is asked
 * again and again (every explorer polls the latest block and the busy contracts) and its answer
 * changes only when something commits. docs/performance.md ("Answers kept between commits") has the
 * figures.
 *
 * <p>What it keeps: only what {@link HttpCaching} renders as JSON with status 200,
 * stored there ({@link #keep}) under the version this filter read when the request came in, so an
 * answer computed while a commit landed is kept under the older version and never served. Errors,
 * streams and other bodies are not kept. The kept body goes back through {@link HttpCaching}, which
 * chooses its representation (gzip), tag and 304 per request as for any other answer; CORS and the
 * metrics filters run outside this one and see a kept answer as any other. Runs innermost of the
 * filters ({@link ServerFilterPhase#LAST}), after {@link io.stacksexplorer.ops.SchemaGate} and
 * {@link BooleanQueryFilter}; it also answers nothing while {@link DatabaseCircuit} knows the database
 * is down, so an outage is 503 as without it.
 *
 * <p>How fresh: this process's own commits are seen before the writer returns; another process's
 * within the watch interval (50 ms), the same order as a hot standby's replay lag.
 */
@ServerFilter("/extended/**")
class AnswerCache implements Ordered {

    /** The request attribute holding the request's key and the version read when it came in. */
    static final String PENDING = AnswerCache.class.getName() + ".pending";

    /** An answer and the version it was read under. */
    private record Kept(long version, HttpCaching.Rendered answer) {
    }

    /** A request the route answers: where and under which version its answer is kept. */
    private record Pending(String key, long version) {
    }

    private final CommitWatch commits;
    private final DatabaseCircuit circuit;
    private final Cache<String, Kept> kept;

    AnswerCache(CommitWatch commits, DatabaseCircuit circuit, AnswerCacheSettings settings) {
        this.commits = commits;
        this.circuit = circuit;
        this.kept = Caffeine.newBuilder()
                .maximumWeight(settings.getMaxBytes())
                .weigher((String key, Kept k) -> key.length() + k.answer().json.length)
                .build();
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
        String key = request.getUri().toString();
        Kept k = kept.getIfPresent(key);
        if (k != null && k.version() == version) {
            return HttpResponse.ok(k.answer());
        }
        request.setAttribute(PENDING, new Pending(key, version));
        return null;
    }

    /** Keeps a successful answer rendered for this request, under the version read when it came in. */
    void keep(HttpRequest<?> request, HttpCaching.Rendered answer) {
        request.getAttribute(PENDING, Pending.class)
                .ifPresent(p -> kept.put(p.key(), new Kept(p.version(), answer)));
    }
}
