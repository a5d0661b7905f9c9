package io.stacksexplorer.ops;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;

/**
 * The API answers only from a schema it understands: until the database's schema is current
 * ({@link SchemaStatus}) every API route answers 503 with the reason. Matters for a reader started
 * before its writer; the served contract and its docs page do not need the database.
 */
@ServerFilter(value = "/extended/**")
class SchemaGate {

    private final SchemaStatus schema;
    private final ErrorResponseProcessor<?> processor;

    SchemaGate(SchemaStatus schema, ErrorResponseProcessor<?> processor) {
        this.schema = schema;
        this.processor = processor;
    }

    @RequestFilter
    @Nullable
    MutableHttpResponse<?> gate(HttpRequest<?> request) {
        if (ContractController.serves(request.getPath())) {
            return null;
        }
        return schema.problem().<MutableHttpResponse<?>>map(detail -> Unavailable.response(processor, request, detail))
                .orElse(null);
    }
}
