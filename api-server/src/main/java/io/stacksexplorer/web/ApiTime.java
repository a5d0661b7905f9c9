package io.stacksexplorer.web;

import java.nio.charset.StandardCharsets;
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

    /**
     * A time that is always known (a block's): always a valid ISO-8601 time, never {@code ""}. Written
     * digit by digit for years 1970 to 9999 (every block time): {@link DateTimeFormatter} was 9 % of an
     * address page's CPU time, which renders three times per transaction.
     */
    static String instant(long unixSeconds) {
        if (unixSeconds < 0 || unixSeconds >= MAX_FAST) {
            return ISO_MILLIS.format(Instant.ofEpochSecond(unixSeconds));
        }
        long days = unixSeconds / 86_400;
        int secondOfDay = (int) (unixSeconds % 86_400);
        // Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil, inverted).
        long z = days + 719_468;
        long era = z / 146_097;
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        byte[] out = {'0', '0', '0', '0', '-', '0', '0', '-', '0', '0', 'T', '0', '0', ':', '0', '0', ':', '0', '0',
                '.', '0', '0', '0', 'Z'};
        digits(out, 0, 4, year);
        digits(out, 5, 2, month);
        digits(out, 8, 2, day);
        digits(out, 11, 2, secondOfDay / 3600);
        digits(out, 14, 2, secondOfDay / 60 % 60);
        digits(out, 17, 2, secondOfDay % 60);
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** 10000-01-01T00:00:00Z: from here on the formatter writes more than four year digits. */
    private static final long MAX_FAST = 253_402_300_800L;

    private static void digits(byte[] out, int at, int width, int value) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
