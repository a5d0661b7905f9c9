package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;

import java.util.List;

/**
 * One keyset page: its rows, the list's total (a counter), and the keys of the page's first row, of
 * the first row of the next (older) page and of the first row of the page before (newer, up to
 * {@code limit} rows above this one). A key is null where there is no such row.
 *
 * @param offset rows skipped after the cursor (contract logs only; 0 elsewhere)
 */
public record KeyedPage<T, K>(List<T> results, long total, long offset, @Nullable K current, @Nullable K older,
                              @Nullable K newer) {
    public KeyedPage {
        results = List.copyOf(results);
    }
}
