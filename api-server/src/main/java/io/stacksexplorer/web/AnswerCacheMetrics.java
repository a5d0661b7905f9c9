package io.stacksexplorer.web;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * The answer cache as an operator watches it: requests answered from it ({@code result="hit"}) and
 * requests it passed to their route ({@code result="miss"}: not kept yet, dropped by a change, or
 * asked while a commit was being applied), how many answers it holds, and of the offset pages that
 * reached their route, those answered from kept parts ({@link KeptPages}) and those read from the
 * database. On H2 or with the cache switched off the hits stay at 0.
 */
@Singleton
@Requires(property = "stacks.metrics.enabled", value = "true")
class AnswerCacheMetrics implements MeterBinder {

    // A provider: the registry binds this class before the filter's own dependencies may exist.
    private final BeanProvider<AnswerCache> cache;
    private final BeanProvider<KeptAnswers> kept;
    private final BeanProvider<KeptPages> pages;

    AnswerCacheMetrics(BeanProvider<AnswerCache> cache, BeanProvider<KeptAnswers> kept, BeanProvider<KeptPages> pages) {
        this.cache = cache;
        this.kept = kept;
        this.pages = pages;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("stacks.answer.cache", cache, c -> c.get().hits.sum()).tag("result", "hit")
                .description("Requests answered from the answer cache").register(registry);
        FunctionCounter.builder("stacks.answer.cache", cache, c -> c.get().misses.sum()).tag("result", "miss")
                .description("Requests the answer cache passed to their route").register(registry);
        FunctionCounter.builder("stacks.answer.cache.pages", pages, p -> p.get().hits.sum()).tag("result", "hit")
                .description("Offset pages of contract events and address histories that reached their route, by where they came from").register(registry);
        FunctionCounter.builder("stacks.answer.cache.pages", pages, p -> p.get().misses.sum()).tag("result", "miss")
                .description("Offset pages of contract events and address histories that reached their route, by where they came from").register(registry);
        Gauge.builder("stacks.answer.cache.answers", kept, k -> k.get().size())
                .description("Answers and page parts held by the answer cache").register(registry);
    }
}
