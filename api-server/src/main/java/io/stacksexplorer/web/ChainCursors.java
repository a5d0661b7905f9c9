package io.stacksexplorer.web;

import io.micronaut.core.annotation.Nullable;
import io.stacksexplorer.query.ChainKey;
import io.stacksexplorer.query.MempoolKey;

/**
 * The cursor texts of the cursor-paged routes, the peer's own: {@code block_height:microblock_sequence:tx_index}
 * for principal transactions, with {@code :event_index} for contract logs, {@code receipt_time:tx_id} for
 * the mempool. The spec's patterns have checked the form; what they cannot check (a number beyond
 * its column) is a {@code 400} naming {@code cursor} here.
 */
final class ChainCursors {

    private ChainCursors() {
    }

    static @Nullable ChainKey transaction(@Nullable String cursor) {
        if (cursor == null) {
            return null;
        }
        String[] part = cursor.split(":");
        return new ChainKey(number(part[0], Long.MAX_VALUE), (int) number(part[1], Integer.MAX_VALUE),
                (int) number(part[2], Integer.MAX_VALUE), 0);
    }

    static @Nullable ChainKey logEvent(@Nullable String cursor) {
        if (cursor == null) {
            return null;
        }
        String[] part = cursor.split(":");
        return new ChainKey(number(part[0], Long.MAX_VALUE), (int) number(part[1], Integer.MAX_VALUE),
                (int) number(part[2], Integer.MAX_VALUE), (int) number(part[3], Integer.MAX_VALUE));
    }

    /** The id with or without {@code 0x}, any case (the peer fails on one without {@code 0x}). */
    static @Nullable MempoolKey mempool(@Nullable String cursor) {
        if (cursor == null) {
            return null;
        }
        int colon = cursor.indexOf(':');
        return new MempoolKey(number(cursor.substring(0, colon), Long.MAX_VALUE),
                RequestParams.hash(cursor.substring(colon + 1)));
    }

    static @Nullable String transaction(@Nullable ChainKey key) {
        return key == null ? null : key.blockHeight() + ":" + key.microblockSequence() + ":" + key.txIndex();
    }

    static @Nullable String logEvent(@Nullable ChainKey key) {
        return key == null ? null : transaction(key) + ":" + key.eventIndex();
    }

    static @Nullable String mempool(@Nullable MempoolKey key) {
        return key == null ? null : key.receiptTime() + ":" + key.txId();
    }

    private static long number(String digits, long max) {
        try {
            long n = Long.parseLong(digits);
            if (n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // beyond a long: as beyond the column
        }
        throw ApiProblems.badParameter("cursor", "cursor component " + digits + " is larger than " + max);
    }
}
