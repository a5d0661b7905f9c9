package io.stacksexplorer.ops;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The answer cache's heap bound: configured, or an eighth of the heap with a floor. */
class AnswerCacheSettingsTest {

    private static final long MIB = 1L << 20;

    @Test
    void theDefaultIsAnEighthOfTheHeapAndNeverBelow32MiB() {
        assertEquals(128 * MIB, AnswerCacheSettings.defaultMaxBytes(1024 * MIB));
        assertEquals(768 * MIB, AnswerCacheSettings.defaultMaxBytes(6 * 1024 * MIB));
        assertEquals(32 * MIB, AnswerCacheSettings.defaultMaxBytes(256 * MIB));
        assertEquals(32 * MIB, AnswerCacheSettings.defaultMaxBytes(64 * MIB));
    }

    @Test
    void unsetItFollowsThisJvmsHeapAndSetItIsTakenAsGiven() {
        AnswerCacheSettings settings = new AnswerCacheSettings();
        assertEquals(AnswerCacheSettings.defaultMaxBytes(Runtime.getRuntime().maxMemory()), settings.getMaxBytes());
        settings.setMaxBytes(5 * MIB);
        assertEquals(5 * MIB, settings.getMaxBytes());
    }
}
