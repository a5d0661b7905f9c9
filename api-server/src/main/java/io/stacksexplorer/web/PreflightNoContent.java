package io.stacksexplorer.web;

import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.server.annotation.PreMatching;
import io.micronaut.http.server.cors.CorsFilter;

/**
 * CORS is Micronaut's ({@code micronaut.server.cors} in application.yml); its filter answers an
 * accepted preflight {@code OPTIONS} with {@code 200} and no body. This makes it {@code 204 No
 * Content}, the status for an answer without content and the one the reference implementation's
 * CORS middleware sends. Like the CORS filter it runs before routing (a preflight matches no route),
 * just outside it, so that it sees the preflight answer.
 */
@ServerFilter(Filter.MATCH_ALL_PATTERN)
class PreflightNoContent implements Ordered {

    @Override
    public int getOrder() {
        return CorsFilter.CORS_FILTER_ORDER - 1;
    }

    @PreMatching
    @ResponseFilter
    void noContent(HttpRequest<?> request, MutableHttpResponse<?> response) {
        if (request.getMethod() == HttpMethod.OPTIONS
                && request.getHeaders().contains(HttpHeaders.ORIGIN)
                && request.getHeaders().contains(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD)
                && response.code() == HttpStatus.OK.getCode()
                && response.getBody().isEmpty()) {
            response.status(HttpStatus.NO_CONTENT);
        }
    }
}
