package io.stacksexplorer.web;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;
import io.micronaut.json.JsonMapper;
import io.micronaut.web.router.RouteAttributes;

import java.io.IOException;

/**
 * Every body of the API is rendered here, once, for GET and HEAD alike: serialized, compressed when
 * {@link Compression} says so ({@code Content-Encoding: gzip}), and sent as those bytes with their
 * {@code Content-Length}. A HEAD answer gets the same headers without the body (Micronaut neither
 * encodes a HEAD answer's body nor derives its type or length). Every answer varies by
 * {@code Accept-Encoding}.
 *
 * <p>Conditional GETs for every successful answer: a strong {@code ETag} per representation, a
 * 128-bit hash of the JSON ({@link BodyHash}) with {@code -gzip} appended for the compressed one,
 * {@code Cache-Control: public, no-cache, must-revalidate}, and {@code 304} without a body when
 * {@code If-None-Match} names the tag of the representation this request would get. Hashing the
 * body (instead of tagging with the chain tip, as the peer does) keeps a tag valid across blocks
 * that do not change the answer.
 *
 * <p>A successful answer's body and tag are kept by the model they render ({@link #rendered}), so that
 * an answer served again (the first page of a busy address, polled by every client) is not
 * serialized and hashed again: JSON writing and hashing were the largest costs of an address page
 * left in the server. Only the generated models are kept (a Map answer is not: two equal maps may
 * iterate in different orders), and their {@code equals} compares every property, each a string,
 * number, boolean, enum, list or another generated model (RenderedBodiesTest), so two equal models
 * serialize to the same bytes and an entry can never serve a stale body: a body that changed comes
 * from a model that differs. The model is built per request as before; only its rendering is
 * skipped. A kept model must not change afterwards, which holds: nothing touches a model once this
 * filter has rendered it, and the parts models share across answers (a transaction's signed part,
 * {@link SignedPart}) are never modified.
 *
 * <p>Runs outermost of the API's filters, so that it also sees the answers other filters make (400
 * for a bad boolean, 503 while the database is away). Micronaut's CORS filter runs before routing,
 * outside all of these, and adds its headers to whatever comes out, 304s included.
 */
@ServerFilter("/extended/**")
class HttpCaching implements Ordered {

    static final String CACHE_CONTROL = "public, no-cache, must-revalidate";

    /** The package of the models generated from the contract, the only answers kept rendered. */
    static final String MODEL_PACKAGE = "io.stacksexplorer.server.model";

    /**
     * About 48 MB of heap for kept answers: a body's bytes plus its model, which holds about as much
     * text again (as Latin-1 strings), hence twice the body's length.
     */
    private static final long MAX_RENDERED_WEIGHT = 48L << 20;

    /**
     * A rendered body, its tag, and its gzip coding once a client has asked for it (gzip output is
     * the same for the same input and level, so computing it twice in a race is harmless). A
     * {@linkplain #compact compact} one holds only the gzip coding: what the answer cache keeps of a
     * large answer once it is asked for again.
     */
    static final class Rendered {
        /** The JSON; null in a compact or spliced answer. */
        private final byte[] json;
        final String hash;
        private final int length;
        private volatile byte[] gzipped;
        /** A spliced answer's rows ({@link PageSlice}) and the JSON around them; null in any other. */
        private final PageSlice.Splice splice;

        Rendered(byte[] json) {
            this.json = json;
            this.hash = BodyHash.hex(json);
            this.length = json.length;
            this.splice = null;
        }

        private Rendered(String hash, int length, byte[] gzipped) {
            this.json = null;
            this.hash = hash;
            this.length = length;
            this.gzipped = gzipped;
            this.splice = null;
        }

        /** An answer that holds its rows compressed, shared with other pages, and only its own envelope. */
        Rendered(PageSlice.Splice splice, byte[] json) {
            this.json = null;
            this.hash = BodyHash.hex(json);
            this.length = json.length;
            this.splice = splice;
        }

        /** The JSON's length in bytes. */
        int length() {
            return length;
        }

        /**
         * The JSON: held, or inflated each time (it stays small) from the gzip coding of a compact
         * answer or the rows of a spliced one.
         */
        byte[] json() {
            if (json != null) {
                return json;
            }
            return splice != null ? splice.json(length) : Compression.gunzip(gzipped, length);
        }

        byte[] gzipped(Compression compression) {
            byte[] out = gzipped;
            if (out == null) {
                out = compression.gzip(json());
                gzipped = out;
            }
            return out;
        }

        /**
         * This answer as its gzip coding alone, the same tag and JSON: a quarter of the heap of its JSON or
         * less (why the answer cache keeps large answers this way: 4,000 lookups of 20 transactions hold
         * 54 KB each as JSON, more than its default 128 MiB).
         */
        Rendered compact(Compression compression) {
            if (json == null) {
                return this;
            }
            // Not set on this one: the full answer may also be kept by its model, weighed as JSON only.
            byte[] g = gzipped;
            return new Rendered(hash, length, g != null ? g : compression.gzip(json));
        }

        /** Whether this answer holds no JSON of its own (its gzip coding alone, or spliced rows). */
        boolean isCompact() {
            return json == null;
        }

        /** The bytes this answer holds now: its JSON, its gzip coding, or both; a spliced one its envelope and rows. */
        int heldBytes() {
            byte[] g = gzipped;
            return (json == null ? 0 : json.length) + (g == null ? 0 : g.length)
                    + (splice == null ? 0 : splice.heldBytes());
        }
    }

    private final JsonMapper json;
    private final Compression compression;
    private final AnswerCache answers;
    /**
     * Successful answers' bodies by their model (see the class comment); per application context,
     * bounded by weight and evicted by frequency and recency.
     */
    private final Cache<Object, Rendered> rendered = Caffeine.newBuilder()
            .maximumWeight(MAX_RENDERED_WEIGHT)
            .weigher((Object model, Rendered r) -> 2 * r.length())
            .build();

    HttpCaching(JsonMapper json, Compression compression, AnswerCache answers) {
        this.json = json;
        this.compression = compression;
        this.answers = answers;
    }

    @Override
    public int getOrder() {
        return ServerFilterPhase.FIRST.after();
    }

    @ResponseFilter
    MutableHttpResponse<?> render(HttpRequest<?> request, MutableHttpResponse<?> response) throws IOException {
        HttpMethod method = request.getMethod();
        if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
            return response;
        }
        response.getHeaders().add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
        // Micronaut sets a route's body aside when it answers HEAD (filters may still read it) and never writes it.
        Object model = response.getBody().orElse(null);
        if (model == null && method == HttpMethod.HEAD) {
            model = RouteAttributes.getHeadBody(response).orElse(null);
        }
        // An answer kept by AnswerCache: rendered before, for the same request line and committed state.
        Rendered kept = model instanceof Rendered r ? r : null;
        // A stream (the event stream of subscribe.NotificationStream) is written as it comes: no tag.
        if (model == null || model instanceof byte[] || model instanceof CharSequence
                || model instanceof org.reactivestreams.Publisher<?>) {
            return response;
        }
        if (response.code() != HttpStatus.OK.getCode()) {
            byte[] body = json.writeValueAsBytes(model);
            if (compression.gzips(request, body.length)) {
                body = compression.gzip(body);
                response.header(HttpHeaders.CONTENT_ENCODING, Compression.GZIP);
            }
            return send(method, response, body);
        }
        Rendered r = kept;
        if (r == null) {
            // A page spliced from kept rows (PageSlice) comes rendered by its route.
            r = model instanceof PageSlice.Spliced s ? s.rendered() : render(model);
            // Kept by request line, a Map answer too: the bytes served again are the ones rendered for it.
            answers.keep(request, r);
        }
        boolean gzip = compression.gzips(request, r.length());
        String etag = "\"" + r.hash + (gzip ? "-" + Compression.GZIP : "") + "\"";
        response.header(HttpHeaders.ETAG, etag).header(HttpHeaders.CACHE_CONTROL, CACHE_CONTROL);
        if (matches(request.getHeaders().get(HttpHeaders.IF_NONE_MATCH), etag)) {
            response.getHeaders().remove(HttpHeaders.CONTENT_TYPE);
            return response.status(HttpStatus.NOT_MODIFIED).body(null);
        }
        response.contentType(MediaType.APPLICATION_JSON_TYPE);
        if (gzip) {
            response.header(HttpHeaders.CONTENT_ENCODING, Compression.GZIP);
        }
        if (method == HttpMethod.HEAD && !gzip) {
            // The length alone: a compact answer is not inflated for it.
            return response.body(null).contentLength(r.length());
        }
        return send(method, response, gzip ? r.gzipped(compression) : r.json());
    }

    /** The body for GET; its length for GET and HEAD alike. */
    private static MutableHttpResponse<?> send(HttpMethod method, MutableHttpResponse<?> response, byte[] body) {
        if (method == HttpMethod.GET) {
            response.body(body);
        } else {
            response.body(null);
        }
        return response.contentLength(body.length);
    }

    /** A successful answer's body: kept when its model is a generated one, else rendered now. */
    private Rendered render(Object model) throws IOException {
        if (!MODEL_PACKAGE.equals(model.getClass().getPackageName())) {
            return new Rendered(json.writeValueAsBytes(model));
        }
        Rendered r = rendered.getIfPresent(model);
        if (r == null) {
            r = new Rendered(json.writeValueAsBytes(model));
            rendered.put(model, r);
        }
        return r;
    }

    /** RFC 9110: a list of tags or {@code *}; weak comparison, as for GET. */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.equals("*") || tag.equals(etag) || tag.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }

}
