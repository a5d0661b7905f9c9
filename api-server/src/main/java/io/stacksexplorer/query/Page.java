package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;

import java.util.List;

/**
 * One page of a list and the list's total size (from a counter, never counted per request).
 *
 * @param offset how many rows of the list come before the page (newest first)
 * @param last   the position of the page's last row, when more rows follow it; null on the last page
 *               and for lists that are not position-numbered
 */
public record Page<T>(List<T> results, long total, long offset, @Nullable PagePosition last) {
    public Page {
        results = List.copyOf(results);
    }

    public Page(List<T> results, long total) {
        this(results, total, 0, null);
    }
}
