package io.stacksexplorer.web;

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
 * <p>Runs outermost of the API's filters, so that it also sees the answers other filters make (400
 * for a bad boolean, 503 while the database is away). Micronaut's CORS filter runs before routing,
 * outside all of these, and adds its headers to whatever comes out, 304s included.
 */
@ServerFilter("/extended/**")
class HttpCaching implements Ordered {

    static final String CACHE_CONTROL = "public, no-cache, must-revalidate";

    private final JsonMapper json;
    private final Compression compression;

    HttpCaching(JsonMapper json, Compression compression) {
        this.json = json;
        this.compression = compression;
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
        // A stream (the event stream of subscribe.NotificationStream) is written as it comes: no tag.
        if (model == null || model instanceof byte[] || model instanceof CharSequence
                || model instanceof org.reactivestreams.Publisher<?>) {
            return response;
        }
        byte[] body = json.writeValueAsBytes(model);
        boolean gzip = compression.gzips(request, body.length);
        if (response.code() == HttpStatus.OK.getCode()) {
            String etag = "\"" + BodyHash.hex(body) + (gzip ? "-" + Compression.GZIP : "") + "\"";
            response.header(HttpHeaders.ETAG, etag).header(HttpHeaders.CACHE_CONTROL, CACHE_CONTROL);
            if (matches(request.getHeaders().get(HttpHeaders.IF_NONE_MATCH), etag)) {
                response.getHeaders().remove(HttpHeaders.CONTENT_TYPE);
                return response.status(HttpStatus.NOT_MODIFIED).body(null);
            }
            response.contentType(MediaType.APPLICATION_JSON_TYPE);
        }
        if (gzip) {
            body = compression.gzip(body);
            response.header(HttpHeaders.CONTENT_ENCODING, Compression.GZIP);
        }
        if (method == HttpMethod.GET) {
            response.body(body);
        }
        return response.contentLength(body.length);
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
