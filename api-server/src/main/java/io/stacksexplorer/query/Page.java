package io.stacksexplorer.query;

import java.util.List;

/** One page of a list and the list's total size (from a counter, never counted per request). */
public record Page<T>(List<T> results, long total) {
    public Page {
        results = List.copyOf(results);
    }
}
