package io.stacksexplorer.web;

import io.micronaut.data.connection.exceptions.ConnectionException;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.transaction.exceptions.TransactionException;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zalando.problem.Problem;
import org.zalando.problem.Status;

/**
 * The database failed or is unreachable: 503, so clients and load balancers retry elsewhere or
 * later. Which exception surfaces depends on where the failure is noticed (a query, taking a
 * connection, opening or closing a transaction), so each kind has a handler; all answer alike.
 */
abstract class StorageProblemHandler<E extends RuntimeException> implements ExceptionHandler<E, HttpResponse<?>> {

    private static final Logger LOG = LoggerFactory.getLogger(StorageProblemHandler.class);

    private final ErrorResponseProcessor<?> processor;

    StorageProblemHandler(ErrorResponseProcessor<?> processor) {
        this.processor = processor;
    }

    @Override
    public HttpResponse<?> handle(HttpRequest request, E exception) {
        LOG.error("storage failure answering {}", request.getPath(), exception);
        return processor.processResponse(ErrorContext.builder(request).cause(Problem.builder()
                        .withTitle(Status.SERVICE_UNAVAILABLE.getReasonPhrase())
                        .withStatus(Status.SERVICE_UNAVAILABLE)
                        .withDetail("the database is unavailable")
                        .build()).build(),
                HttpResponse.status(HttpStatus.SERVICE_UNAVAILABLE));
    }

    @Singleton
    @Produces
    static class DataAccess extends StorageProblemHandler<DataAccessException> {
        DataAccess(ErrorResponseProcessor<?> processor) {
            super(processor);
        }
    }

    @Singleton
    @Produces
    static class Connection extends StorageProblemHandler<ConnectionException> {
        Connection(ErrorResponseProcessor<?> processor) {
            super(processor);
        }
    }

    @Singleton
    @Produces
    static class Transaction extends StorageProblemHandler<TransactionException> {
        Transaction(ErrorResponseProcessor<?> processor) {
            super(processor);
        }
    }
}
