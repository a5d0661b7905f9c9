package io.stacksexplorer.ops;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;

/**
 * The API answers only from a database it can reach and a schema it understands: while the database
 * is known to be unreachable ({@link DatabaseCircuit}) or until its schema is current ({@link SchemaStatus})
 * every API route answers 503 with the reason, without touching the connection pool. Matters during an
 * outage and for a reader started before its writer; the served contract and its docs page do not need
 * the database.
 */
@ServerFilter(value = "/extended/**")
class SchemaGate {

    private final SchemaStatus schema;
    private final DatabaseCircuit circuit;
    private final ErrorResponseProcessor<?> processor;

    SchemaGate(SchemaStatus schema, DatabaseCircuit circuit, ErrorResponseProcessor<?> processor) {
        this.schema = schema;
        this.circuit = circuit;
        this.processor = processor;
    }

    @RequestFilter
    @Nullable
    MutableHttpResponse<?> gate(HttpRequest<?> request) {
        if (OpenApiDocumentController.serves(request.getPath())) {
            return null;
        }
        if (circuit.knownDown()) {
            return Unavailable.response(processor, request, Unavailable.UNREACHABLE);
        }
        return schema.problem().<MutableHttpResponse<?>>map(detail -> Unavailable.response(processor, request, detail))
                .orElse(null);
    }
}
