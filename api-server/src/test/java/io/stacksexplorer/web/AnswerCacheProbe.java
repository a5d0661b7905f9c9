package io.stacksexplorer.web;

import io.micronaut.context.ApplicationContext;
import io.stacksexplorer.ops.CommitWatch;

/**
 * For tests outside this package: whether a server's answer cache has applied every commit it has
 * seen, so that an answer asked for from now on is kept (one asked before its first application is
 * not: it may predate the change log position it started from).
 */
public final class AnswerCacheProbe {

    private AnswerCacheProbe() {
    }

    /** Starts the cache's following of the change log if it has not started, and says whether it is current. */
    public static boolean applied(ApplicationContext context) {
        return context.getBean(AnswerInvalidation.class).current(context.getBean(CommitWatch.class).version());
    }

    /** Requests the server's answer cache has answered so far. */
    public static long hits(ApplicationContext context) {
        return context.getBean(AnswerCache.class).hits.sum();
    }

    /** What the kept answers weigh (request lines and held bytes), once the cache has caught up with its writes. */
    public static long keptBytes(ApplicationContext context) {
        return context.getBean(KeptAnswers.class).weighedBytes();
    }
}
