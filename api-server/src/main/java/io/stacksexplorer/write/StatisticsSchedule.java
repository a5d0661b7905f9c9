package io.stacksexplorer.write;

/**
 * When the write path refreshes PostgreSQL's planner statistics itself, as the tables grow.
 *
 * <p>The write path's lookups are prepared statements, and PostgreSQL keeps a generic plan per
 * prepared statement for the life of the connection once it looks no worse than the custom ones.
 * Planned while a table was nearly empty, that plan is a sequential scan, and nothing replaces it
 * until the table's statistics change. Where autovacuum is off (as on the CI machine) they never
 * do: a 200,000-transaction replay into an empty schema spent 12 of its first 13 minutes
 * in one backend scanning all of {@code mempool_txs} (5,617 sequential scans, 293 million rows
 * read) for an id lookup its primary key answers. ANALYZE invalidates those plans, so the writer
 * runs it whenever the rows it wrote since the last one reach the rows written before it: a
 * doubling schedule, about 20 runs from empty to ten million rows, each a fraction of a second.
 *
 * <p>One instance per writer process; rows are counted only for committed transactions.
 */
final class StatisticsSchedule {

    /** Rows written before the first refresh: below this, any plan is cheap. */
    static final long FIRST_AFTER_ROWS = 5_000;

    private long rowsAtLastRefresh;
    private long rowsSinceRefresh;

    /** Counts the rows a committed transaction wrote; true when the statistics are due for a refresh. */
    synchronized boolean committed(long rows) {
        rowsSinceRefresh += rows;
        return rowsSinceRefresh >= Math.max(FIRST_AFTER_ROWS, rowsAtLastRefresh);
    }

    /** Records that the statistics were refreshed now. */
    synchronized void refreshed() {
        rowsAtLastRefresh += rowsSinceRefresh;
        rowsSinceRefresh = 0;
    }

    /** After emptying the derived tables: the tables are small again. */
    synchronized void reset() {
        rowsAtLastRefresh = 0;
        rowsSinceRefresh = 0;
    }
}
