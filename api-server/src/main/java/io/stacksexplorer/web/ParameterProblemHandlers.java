package io.stacksexplorer.web;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.convert.exceptions.ConversionErrorException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ConversionErrorHandler;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.http.server.exceptions.UnsatisfiedRouteHandler;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.problem.violations.ProblemConstraintViolationExceptionHandler;
import io.micronaut.web.router.exceptions.UnsatisfiedRouteException;
import jakarta.inject.Singleton;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Path;
import org.zalando.problem.ThrowableProblem;

import java.util.Comparator;

/**
 * Turns the framework's parameter errors (Bean Validation from the generated interfaces, type
 * conversion, missing required parameters) into the spec's 400 problem naming the parameter, in
 * place of the framework's and micronaut-problem-json's default bodies.
 */
final class ParameterProblemHandlers {

    private ParameterProblemHandlers() {
    }

    static MutableHttpResponse<?> respond(ErrorResponseProcessor<?> processor, HttpRequest<?> request,
                                          ThrowableProblem problem) {
        return processor.processResponse(ErrorContext.builder(request).cause(problem).build(),
                HttpResponse.badRequest());
    }

    @Singleton
    @Produces
    @Replaces(ProblemConstraintViolationExceptionHandler.class)
    static class ConstraintViolations implements ExceptionHandler<ConstraintViolationException, HttpResponse<?>> {
        private final ErrorResponseProcessor<?> processor;

        ConstraintViolations(ErrorResponseProcessor<?> processor) {
            this.processor = processor;
        }

        @Override
        public HttpResponse<?> handle(HttpRequest request, ConstraintViolationException exception) {
            // Report one violation, the same one every time (sorted), so answers are reproducible.
            ConstraintViolation<?> first = exception.getConstraintViolations().stream()
                    .min(Comparator.comparing(v -> v.getPropertyPath().toString()))
                    .orElseThrow();
            String parameter = parameterName(first.getPropertyPath());
            Object invalid = first.getInvalidValue();
            String detail = parameter + " " + first.getMessage()
                    + (invalid == null || invalid instanceof Iterable<?> ? "" : ", got '" + invalid + "'");
            return respond(processor, request, ApiProblems.badParameter(parameter, detail));
        }

        /** The path is {@code method.parameter[index].<element>}: the parameter is the second node. */
        private static String parameterName(Path path) {
            String name = "request";
            int i = 0;
            for (Path.Node node : path) {
                if (i++ == 1) {
                    name = node.getName();
                }
            }
            return ApiProblems.specName(name);
        }
    }

    @Singleton
    @Produces
    @Replaces(ConversionErrorHandler.class)
    static class ConversionErrors implements ExceptionHandler<ConversionErrorException, HttpResponse<?>> {
        private final ErrorResponseProcessor<?> processor;

        ConversionErrors(ErrorResponseProcessor<?> processor) {
            this.processor = processor;
        }

        @Override
        public HttpResponse<?> handle(HttpRequest request, ConversionErrorException exception) {
            String parameter = ApiProblems.specName(exception.getArgument().getName());
            String expected = exception.getArgument().getType().getSimpleName().toLowerCase();
            String value = exception.getConversionError().getOriginalValue().map(Object::toString).orElse("");
            return respond(processor, request, ApiProblems.badParameter(parameter,
                    parameter + " must be " + ("integer".equals(expected) ? "an integer" : "a " + expected)
                            + ", got '" + value + "'"));
        }
    }

    @Singleton
    @Produces
    @Replaces(UnsatisfiedRouteHandler.class)
    static class MissingParameters implements ExceptionHandler<UnsatisfiedRouteException, HttpResponse<?>> {
        private final ErrorResponseProcessor<?> processor;

        MissingParameters(ErrorResponseProcessor<?> processor) {
            this.processor = processor;
        }

        @Override
        public HttpResponse<?> handle(HttpRequest request, UnsatisfiedRouteException exception) {
            String parameter = ApiProblems.specName(exception.getArgument().getName());
            return respond(processor, request,
                    ApiProblems.badParameter(parameter, parameter + " is required"));
        }
    }
}
