package io.stacksexplorer.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The API's time rendering: ISO-8601 UTC with milliseconds, as the peer serves it. */
final class ApiTime {

    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private ApiTime() {
    }

    /**
     * A transaction's time that may not be known: {@code -1} (the burn block of an unanchored
     * transaction) or {@code 0} (the parent burn block of block 1, whose parent is the genesis block)
     * render as {@code ""}, as at the peer and as the spec documents per property.
     */
    static String iso(long unixSeconds) {
        return unixSeconds <= 0 ? "" : instant(unixSeconds);
    }

    /** A time that is always known (a block's): always a valid ISO-8601 time, never {@code ""}. */
    static String instant(long unixSeconds) {
        return ISO_MILLIS.format(Instant.ofEpochSecond(unixSeconds));
    }
}
