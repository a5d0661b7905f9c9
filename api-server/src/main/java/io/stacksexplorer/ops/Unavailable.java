package io.stacksexplorer.ops;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import org.zalando.problem.Problem;
import org.zalando.problem.Status;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * The one 503 answer of the public API: the spec's problem body with a detail that says what is
 * wrong (database unreachable, schema not migrated yet, database failing) and a
 * {@code Retry-After}, so clients and load balancers come back later instead of hammering.
 */
public final class Unavailable {

    /** Seconds a client should wait; about the time a restarted database or a writer's migration takes. */
    public static final int RETRY_AFTER_SECONDS = 5;

    public static final String UNREACHABLE = "the database is unreachable; retry later";
    public static final String FAILING = "the database failed to answer; retry later";

    private Unavailable() {
    }

    public static MutableHttpResponse<?> response(ErrorResponseProcessor<?> processor, HttpRequest<?> request,
                                                  String detail) {
        return processor.processResponse(ErrorContext.builder(request).cause(Problem.builder()
                                .withTitle(Status.SERVICE_UNAVAILABLE.getReasonPhrase())
                                .withStatus(Status.SERVICE_UNAVAILABLE)
                                .withDetail(detail)
                                .build()).build(),
                        HttpResponse.status(HttpStatus.SERVICE_UNAVAILABLE))
                .header("Retry-After", String.valueOf(RETRY_AFTER_SECONDS));
    }

    /**
     * What a storage failure means for a client, from its SQL cause: no connection (pool timeout,
     * SQLSTATE class 08, or 57P0x: the server is shutting down), a missing table or column (42P01 / 42703 on PostgreSQL, 42S02 / 42S22 on
     * H2: a schema older than this server), or anything else.
     */
    public static String detailFor(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException
                    || (t instanceof SQLException && "Connection is closed".equals(t.getMessage()))) {
                // No connection within the pool's timeout, or a pooled one the outage broke mid-request.
                return UNREACHABLE;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08") || state.startsWith("57P")) {
                    return UNREACHABLE;
                }
                if (state.equals("42P01") || state.equals("42703") || state.equals("42S02") || state.equals("42S22")) {
                    return SchemaStatus.NOT_MIGRATED_DETAIL;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return FAILING;
    }
}
