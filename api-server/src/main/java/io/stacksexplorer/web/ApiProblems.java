package io.stacksexplorer.web;

import org.zalando.problem.Problem;
import org.zalando.problem.Status;
import org.zalando.problem.ThrowableProblem;

/**
 * The errors controllers raise, as RFC 9457 problems rendered by micronaut-problem-json: the
 * spec's {@code Problem} schema with {@code parameter} naming the request parameter at fault.
 */
public final class ApiProblems {

    private ApiProblems() {
    }

    public static ThrowableProblem badParameter(String parameter, String detail) {
        return Problem.builder()
                .withTitle(Status.BAD_REQUEST.getReasonPhrase())
                .withStatus(Status.BAD_REQUEST)
                .withDetail(detail)
                .with("parameter", parameter)
                .build();
    }

    static ThrowableProblem notFound(String detail) {
        return Problem.builder()
                .withTitle(Status.NOT_FOUND.getReasonPhrase())
                .withStatus(Status.NOT_FOUND)
                .withDetail(detail)
                .build();
    }

    /** {@code heightOrHash} → {@code height_or_hash}: Java parameter names back to the spec's. */
    static String specName(String javaName) {
        StringBuilder sb = new StringBuilder();
        for (char c : javaName.toCharArray()) {
            if (Character.isUpperCase(c)) {
                sb.append('_').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
