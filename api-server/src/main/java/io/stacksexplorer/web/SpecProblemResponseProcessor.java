package io.stacksexplorer.web;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.Error;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.problem.ProblemErrorResponseProcessor;
import io.stacksexplorer.server.model.Problem;
import jakarta.inject.Singleton;
import org.zalando.problem.ThrowableProblem;

/**
 * The one place every error answer is rendered: the spec's {@code Problem} schema as
 * {@code application/problem+json}. Controllers and handlers raise micronaut-problem-json's
 * {@link ThrowableProblem}s; framework errors (unknown route, wrong method, unexpected exceptions)
 * arrive here too. Replaces the library's renderer, whose serialization writes {@code status} as a
 * name and nests custom members under {@code parameters}. 5xx details never reveal internals.
 */
@Singleton
@Replaces(ProblemErrorResponseProcessor.class)
class SpecProblemResponseProcessor implements ErrorResponseProcessor<Problem> {

    static final String APPLICATION_PROBLEM_JSON = "application/problem+json";

    @Override
    public MutableHttpResponse<Problem> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
        int status = response.code();
        HttpStatus httpStatus = HttpStatus.valueOf(status);
        Problem problem = new Problem("about:blank", httpStatus.getReason(), status);
        if (context.getRootCause().orElse(null) instanceof ThrowableProblem thrown) {
            if (thrown.getType() != null) {
                problem.setType(thrown.getType().toString());
            }
            if (thrown.getTitle() != null) {
                problem.setTitle(thrown.getTitle());
            }
            problem.setDetail(thrown.getDetail());
            Object parameter = thrown.getParameters().get("parameter");
            if (parameter != null) {
                problem.setParameter(parameter.toString());
            }
            Object oldest = thrown.getParameters().get("oldest_position");
            if (oldest != null) {
                problem.setOldestPosition(oldest.toString());
            }
        } else if (status < 500) {
            problem.setDetail(context.getErrors().stream().map(Error::getMessage).findFirst()
                    .orElse(httpStatus.getReason()));
        } else {
            problem.setDetail("an unexpected error occurred");
        }
        return response.contentType(APPLICATION_PROBLEM_JSON).body(problem);
    }
}
