package io.stacksexplorer.web;

import io.micronaut.data.connection.exceptions.ConnectionException;
import io.micronaut.data.connection.jdbc.exceptions.CannotGetJdbcConnectionException;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.transaction.exceptions.TransactionException;
import io.stacksexplorer.ops.DatabaseCircuit;
import io.stacksexplorer.ops.Unavailable;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database failed or is unreachable: 503, so clients and load balancers retry elsewhere or
 * later. Which exception surfaces depends on where the failure is noticed (a query, taking a
 * connection, opening or closing a transaction), so each kind has a handler; all answer alike,
 * with a detail naming the cause and a {@code Retry-After} ({@link Unavailable}). An unreachable
 * database opens the {@link DatabaseCircuit}: later requests get the 503 without waiting for the pool.
 */
abstract class StorageProblemHandler<E extends RuntimeException> implements ExceptionHandler<E, HttpResponse<?>> {

    private static final Logger LOG = LoggerFactory.getLogger(StorageProblemHandler.class);

    private final ErrorResponseProcessor<?> processor;
    private final DatabaseCircuit circuit;

    StorageProblemHandler(ErrorResponseProcessor<?> processor, DatabaseCircuit circuit) {
        this.processor = processor;
        this.circuit = circuit;
    }

    @Override
    public HttpResponse<?> handle(HttpRequest request, E exception) {
        String detail = Unavailable.detailFor(exception);
        if (detail.equals(Unavailable.UNREACHABLE)) {
            // Expected during an outage and answered within the pool's timeout: no stack trace per request.
            LOG.warn("database unreachable answering {}: {}", request.getPath(), exception.getMessage());
            circuit.unreachable();
        } else {
            LOG.error("storage failure answering {}", request.getPath(), exception);
        }
        return Unavailable.response(processor, request, detail);
    }

    @Singleton
    @Produces
    static class DataAccess extends StorageProblemHandler<DataAccessException> {
        DataAccess(ErrorResponseProcessor<?> processor, DatabaseCircuit circuit) {
            super(processor, circuit);
        }
    }

    @Singleton
    @Produces
    static class Connection extends StorageProblemHandler<ConnectionException> {
        Connection(ErrorResponseProcessor<?> processor, DatabaseCircuit circuit) {
            super(processor, circuit);
        }
    }

    /** No connection within the pool's timeout (database down): not a DataAccessException subtype. */
    @Singleton
    @Produces
    static class NoConnection extends StorageProblemHandler<CannotGetJdbcConnectionException> {
        NoConnection(ErrorResponseProcessor<?> processor, DatabaseCircuit circuit) {
            super(processor, circuit);
        }
    }

    @Singleton
    @Produces
    static class Transaction extends StorageProblemHandler<TransactionException> {
        Transaction(ErrorResponseProcessor<?> processor, DatabaseCircuit circuit) {
            super(processor, circuit);
        }
    }
}
