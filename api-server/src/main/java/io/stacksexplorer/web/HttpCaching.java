package io.stacksexplorer.web;

import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.json.JsonMapper;

import java.io.IOException;

/**
 * Conditional GETs for every successful answer: a strong {@code ETag}, a 128-bit hash of the body
 * ({@link BodyHash}), {@code Cache-Control: public, no-cache, must-revalidate}, and {@code 304} without a body when
 * {@code If-None-Match} names the current tag. Hashing the body (instead of tagging with the chain
 * tip, as the peer does) keeps a tag valid across blocks that do not change the answer. The body
 * is serialized here once and sent as those bytes, so it is not serialized twice.
 */
@ServerFilter("/extended/**")
class HttpCaching {

    static final String CACHE_CONTROL = "public, no-cache, must-revalidate";

    private final JsonMapper json;

    HttpCaching(JsonMapper json) {
        this.json = json;
    }

    @ResponseFilter
    MutableHttpResponse<?> tag(HttpRequest<?> request, MutableHttpResponse<?> response) throws IOException {
        if (request.getMethod() != HttpMethod.GET || response.code() != HttpStatus.OK.getCode()
                || response.getBody().isEmpty() || response.getBody().get() instanceof byte[]) {
            return response;
        }
        byte[] body = json.writeValueAsBytes(response.getBody().get());
        String etag = "\"" + BodyHash.hex(body) + "\"";
        if (matches(request.getHeaders().get("If-None-Match"), etag)) {
            return HttpResponse.notModified()
                    .header("ETag", etag)
                    .header("Cache-Control", CACHE_CONTROL);
        }
        return response.body(body)
                .contentType(MediaType.APPLICATION_JSON_TYPE)
                .header("ETag", etag)
                .header("Cache-Control", CACHE_CONTROL);
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
