package io.stacksexplorer.ops;

import io.micronaut.context.annotation.ConfigurationProperties;

import java.time.Duration;

/**
 * The answer cache ({@code stacks.answer-cache.*}, from the environment as
 * {@code STACKS_ANSWER_CACHE_*}): successful answers kept by their request line until a commit changes
 * what they were made from (web.AnswerCache, web.KeptAnswers, ops.CommitWatch). PostgreSQL only.
 */
@ConfigurationProperties("stacks.answer-cache")
public class AnswerCacheSettings {

    /** Off: every request reads the database, as before the cache. */
    private boolean enabled = true;
    /**
     * How often the database is asked whether anything committed: the most an answer can lag behind
     * a commit made by another process (this process's own commits are seen at once).
     */
    private Duration watchInterval = Duration.ofMillis(50);
    /** Heap for kept answers, in bytes of JSON (the bodies are shared with HttpCaching's rendered ones). */
    private long maxBytes = 32L << 20;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getWatchInterval() {
        return watchInterval;
    }

    public void setWatchInterval(Duration watchInterval) {
        this.watchInterval = watchInterval;
    }

    public long getMaxBytes() {
        return maxBytes;
    }

    public void setMaxBytes(long maxBytes) {
        this.maxBytes = maxBytes;
    }
}
