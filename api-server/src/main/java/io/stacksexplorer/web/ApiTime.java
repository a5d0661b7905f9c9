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
     * Unix seconds as ISO text; a time not known (negative, e.g. unanchored, or 0, e.g. the parent burn
     * time of the genesis block) renders empty, as at the peer.
     */
    static String iso(long unixSeconds) {
        return unixSeconds <= 0 ? "" : ISO_MILLIS.format(Instant.ofEpochSecond(unixSeconds));
    }
}
