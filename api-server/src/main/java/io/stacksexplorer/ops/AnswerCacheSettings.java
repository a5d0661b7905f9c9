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
    /** The least heap the cache gets by default, in bytes of JSON. */
    static final long MIN_DEFAULT_BYTES = 32L << 20;

    /**
     * Heap for kept answers, in bytes of JSON (the bodies are shared with HttpCaching's rendered ones);
     * 0, the default, for an eighth of the JVM's maximum heap, at least {@link #MIN_DEFAULT_BYTES}: a
     * fixed 32 MiB held a twentieth of a 1 GiB server's heap, and too few of an explorer's spread of
     * large answers (20-id lookups of 54 KB each) to keep any (issue 48).
     */
    private long maxBytes;

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

    /** The bound in force: the configured one, else the default for this JVM's heap. */
    public long getMaxBytes() {
        return maxBytes > 0 ? maxBytes : defaultMaxBytes(Runtime.getRuntime().maxMemory());
    }

    /** An eighth of {@code maxHeap}, at least {@link #MIN_DEFAULT_BYTES}. */
    static long defaultMaxBytes(long maxHeap) {
        return Math.max(MIN_DEFAULT_BYTES, maxHeap / 8);
    }

    public void setMaxBytes(long maxBytes) {
        this.maxBytes = maxBytes;
    }
}
