package io.stacksexplorer.web;

import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zalando.problem.Problem;
import org.zalando.problem.Status;

/** The database failed or is unreachable: 503, so clients and load balancers retry elsewhere or later. */
@Singleton
@Produces
class StorageProblemHandler implements ExceptionHandler<DataAccessException, HttpResponse<?>> {

    private static final Logger LOG = LoggerFactory.getLogger(StorageProblemHandler.class);

    private final ErrorResponseProcessor<?> processor;

    StorageProblemHandler(ErrorResponseProcessor<?> processor) {
        this.processor = processor;
    }

    @Override
    public HttpResponse<?> handle(HttpRequest request, DataAccessException exception) {
        LOG.error("storage failure answering {}", request.getPath(), exception);
        return processor.processResponse(ErrorContext.builder(request).cause(Problem.builder()
                        .withTitle(Status.SERVICE_UNAVAILABLE.getReasonPhrase())
                        .withStatus(Status.SERVICE_UNAVAILABLE)
                        .withDetail("the database is unavailable")
                        .build()).build(),
                HttpResponse.status(io.micronaut.http.HttpStatus.SERVICE_UNAVAILABLE));
    }
}
