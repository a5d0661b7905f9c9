package io.stacksexplorer.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL: the queue of a database transaction sent with its COMMIT as one multi-statement, in one
 * round trip ({@link #sendAndCommit}), when it is small enough: the values of each queued statement's
 * rows are kept here while it has queued at most {@value #AT_ONCE_ROWS} of them. Used by
 * {@link StatementQueue} unless it runs statement by statement (H2, whose statements cost no round
 * trip; {@code -Dstacks.write.atOnce=false}; {@link Statements#sendStatementByStatement}).
 */
final class QueueAtOnce {

    /** The rows a queued statement's COPY holds or its JDBC batch binds. */
    @FunctionalInterface
    interface Copies {
        CopyRows of(WriteStatement statement) throws SQLException;
    }

    /** The statement's prepared statement on the transaction's connection. */
    @FunctionalInterface
    interface Prepared {
        PreparedStatement of(WriteStatement statement) throws SQLException;
    }

    /** The values of each queued statement's rows; {@link #TOO_MANY_ROWS} once it queued more than fit. */
    private final Map<WriteStatement, List<Object[]>> queuedValues = new HashMap<>();
    private static final List<Object[]> TOO_MANY_ROWS = List.of();
    /**
     * Rows per statement up to which the queue goes at once: a block of today's chain queues a few
     * to a few dozen rows per table (1.2 to 10 transactions per Nakamoto block); a replay's batch
     * of hundreds of blocks queues thousands, and goes by COPY.
     */
    static final int AT_ONCE_ROWS = 256;
    /** Bound values up to which the queue goes at once (pgjdbc binds at most 65,535 per statement). */
    private static final int AT_ONCE_VALUES = 30_000;

    /** A row {@code statement} queued. */
    void queued(WriteStatement statement, Object[] params) {
        List<Object[]> values = queuedValues.computeIfAbsent(statement, k -> new ArrayList<>());
        if (values != TOO_MANY_ROWS) {
            if (values.size() < AT_ONCE_ROWS) {
                values.add(params);
            } else {
                queuedValues.put(statement, TOO_MANY_ROWS);
            }
        }
    }

    /** {@code statement}'s rows were sent (or dropped). */
    void sent(WriteStatement statement) {
        queuedValues.remove(statement);
    }

    /** Whether every queued statement still has its rows' values, and all of them fit one statement. */
    boolean canSend(Collection<WriteStatement> queue) {
        if (queue.isEmpty()) {
            return false;
        }
        int values = 0;
        for (WriteStatement queued : queue) {
            List<Object[]> rows = queuedValues.get(queued);
            if (rows == null || rows == TOO_MANY_ROWS) {
                return false;
            }
            for (Object[] row : rows) {
                values += row.length;
            }
        }
        return values <= AT_ONCE_VALUES;
    }

    /**
     * Sends every queued statement, in queue order, and then the transaction's COMMIT as one
     * multi-statement: pgjdbc sends its parts one after another and waits once (one Sync), so a
     * payload's writes and its commit cost one round trip instead of one per statement and two per
     * COPY. The rows of a plain INSERT become one INSERT over an array per column
     * ({@link CopyRows#arrayInsert}); any other statement is repeated per row (the write path passes
     * most of its rows as arrays itself and is queued once). The text therefore depends on which
     * statements are queued, not on how many rows: the few dozen texts a feed produces are each
     * prepared on the server once per connection (pgjdbc's prepareThreshold) and planned once. The
     * answer means committed, and the transaction manager's own commit finds nothing left to do
     * (pgjdbc sends COMMIT only inside an open transaction).
     *
     * <p>Why: a payload of today's chain took 6 (mempool) to 18 (block) round trips, each waiting for
     * the network between the writer and its database. On the loopback of the benchmark machine they
     * were not what bounded the observer (docs/performance.md, "One round trip per delivery": 4.2
     * times fewer, same wall time); across a network each costs its latency.
     */
    void sendAndCommit(Connection connection, Collection<WriteStatement> queue, Copies copies, Prepared prepared)
            throws SQLException {
        StringBuilder text = new StringBuilder(4096);
        List<Object> values = new ArrayList<>();
        for (WriteStatement queued : queue) {
            List<Object[]> rows = queuedValues.get(queued);
            CopyRows copy = copies.of(queued);
            if (copy != null) {
                text.append(copy.arrayInsert()).append(";\n");
                for (int column = 0; column < copy.columnNames().size(); column++) {
                    String[] elements = new String[rows.size()];
                    for (int row = 0; row < elements.length; row++) {
                        elements[row] = CopyRows.valueText(rows.get(row)[column]);
                    }
                    values.add(connection.createArrayOf("text", elements));
                }
                copy.clear();
            } else {
                for (Object[] row : rows) {
                    text.append(queued.sql()).append(";\n");
                    values.addAll(Arrays.asList(row));
                }
                prepared.of(queued).clearBatch();
            }
        }
        text.append("COMMIT");
        queuedValues.clear();
        try (PreparedStatement ps = connection.prepareStatement(text.toString())) {
            for (int i = 0; i < values.size(); i++) {
                StatementQueue.bind(ps, i + 1, values.get(i), true);
            }
            ps.execute();
            // Every part's result is read: an error in any part is thrown here.
            while (ps.getMoreResults() || ps.getUpdateCount() != -1) {
                // next part
            }
        }
    }
}
