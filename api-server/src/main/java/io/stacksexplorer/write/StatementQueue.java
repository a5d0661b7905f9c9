package io.stacksexplorer.write;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statement queue of the write path (the narrow updater): thin JDBC plumbing on the connection of the current database transaction:
 * prepared statements are cached per SQL text for the life of one transaction and rows are
 * batched, which is what makes replay fast.
 *
 * <p>Batched rows stay queued until a statement needs them: a statement first sends the rows
 * queued by statements whose declared tables conflict with its own ({@link WriteStatement#mustPrecede}:
 * one writes a table the other reads or writes), in the order they were queued ({@link #flushFor}),
 * and {@link Statements#finish} sends the rest. So the rows of many blocks travel in one COPY per table
 * instead of one per block, and every read still sees every write made before it.
 */
abstract class StatementQueue implements AutoCloseable {

    /** Maps one result row. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final Connection connection;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();
    /** Statements with queued rows, in the order their first row was queued. */
    private final Map<WriteStatement, Integer> pendingBatches = new LinkedHashMap<>();
    /**
     * PostgreSQL: the rows of each plain INSERT, queued for a binary COPY instead of bound
     * parameters ({@link CopyRows}); {@link #NOT_COPIED} for statements that stay INSERTs. Null on H2.
     */
    private final Map<WriteStatement, CopyRows> copies;
    private final boolean postgres;
    private static final CopyRows NOT_COPIED = new CopyRows(new CopyRows.Target("none", List.of("x")), List.of("text"));
    /** PostgreSQL: the queue sent with the commit in one round trip when small enough; null otherwise. */
    private QueueAtOnce atOnce;

    /** Rows queued by {@link #addBatch} in this transaction (for {@link StatisticsSchedule}). */
    private long rowsWritten;

    StatementQueue(Connection connection) throws SQLException {
        this.connection = connection;
        this.postgres = "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
        // -Dstacks.write.copy=false: batched rows go as multi-row INSERTs on PostgreSQL too (for comparison).
        boolean copy = Boolean.parseBoolean(System.getProperty("stacks.write.copy", "true"));
        this.copies = postgres && copy ? new HashMap<>() : null;
        // -Dstacks.write.atOnce=false: every queued statement in a round trip of its own (for comparison).
        boolean sendAtOnce = Boolean.parseBoolean(System.getProperty("stacks.write.atOnce", "true"));
        this.atOnce = postgres && sendAtOnce ? new QueueAtOnce() : null;
    }

    /** Called for every statement that writes or reads, before it is queued or sent. */
    abstract void beforeStatement(WriteStatement sql, Object[] params);

    /** The rows of {@code sql} were sent ({@code null}: the whole queue, with the commit). */
    abstract void sent(WriteStatement sql);

    boolean isPostgres() {
        return postgres;
    }

    /** From now on each queued statement goes in a round trip of its own ({@link Statements#sendStatementByStatement}). */
    void stopSendingAtOnce() {
        atOnce = null;
    }

    /** Whether the queue may go with the commit in one round trip ({@link QueueAtOnce}). */
    boolean sendsAtOnce() {
        return atOnce != null;
    }

    Connection connection() {
        return connection;
    }

    /** Keys per chunk of {@link #queryIn}. */
    static final int CHUNK = 64;

    /**
     * Runs {@code inChunk}, whose parameters are {@value #CHUNK} places for keys, for {@code keys},
     * a chunk per query (unused places bound to NULL, so one prepared statement serves every
     * chunk): a bulk existence check in a few round trips instead of one per key.
     */
    <T> List<T> queryIn(WriteStatement inChunk, Collection<String> keys, RowMapper<T> mapper) throws SQLException {
        return queryChunks(inChunk, CHUNK, keys, 1, true, mapper);
    }

    /**
     * Runs {@code sql}, whose parameters are {@code bindings} groups of {@value #CHUNK}
     * placeholders, once per chunk of {@code keys}, each group bound to the chunk (unused places to
     * NULL). With {@code flush}, the rows queued for its tables are sent first ({@link #query}).
     */
    <T> List<T> queryChunks(WriteStatement sql, int chunk, Collection<String> keys, int bindings, boolean flush,
                                    RowMapper<T> mapper) throws SQLException {
        List<String> list = new ArrayList<>(keys);
        List<T> rows = new ArrayList<>();
        for (int from = 0; from < list.size(); from += chunk) {
            Object[] params = new Object[bindings * chunk];
            for (int i = 0; i < chunk && from + i < list.size(); i++) {
                for (int group = 0; group < bindings; group++) {
                    params[group * chunk + i] = list.get(from + i);
                }
            }
            rows.addAll(flush ? query(sql, mapper, params) : queryPastTheQueue(sql, mapper, params));
        }
        return rows;
    }

    /** A JDBC array of {@code values} for a parameter, e.g. of type "varchar" or "bigint". */
    java.sql.Array array(String type, Object[] values) throws SQLException {
        return connection.createArrayOf(type, values);
    }

    int update(WriteStatement sql, Object... params) throws SQLException {
        beforeStatement(sql, params);
        flushFor(sql);
        PreparedStatement ps = prepare(sql);
        bind(ps, params);
        return ps.executeUpdate();
    }

    /**
     * As {@link #addBatch}, for an UPDATE of one row that sets every column it names from its
     * parameters: a row it queued before and has not sent is dropped, since this one overwrites it.
     * Re-queued last, after whatever was queued since. The tip ({@link WriteSql#SET_TIP}): a replay's
     * database transaction holds about two hundred blocks, and each used to leave its own UPDATE of
     * chain_state in the queue (97,131 of them in the 1,000,000-transaction mixed replay).
     */
    void addOverwritingBatch(WriteStatement sql, Object... params) throws SQLException {
        Integer dropped = pendingBatches.remove(sql);
        if (dropped != null) {
            prepare(sql).clearBatch();
            if (atOnce != null) {
                atOnce.sent(sql);
            }
            rowsWritten -= dropped;
        }
        addBatch(sql, params);
    }

    void addBatch(WriteStatement sql, Object... params) throws SQLException {
        beforeStatement(sql, params);
        if (atOnce != null) {
            atOnce.queued(sql, params);
        }
        CopyRows copy = copyOf(sql);
        if (copy != null) {
            copy.add(params);
            pendingBatches.merge(sql, 1, Integer::sum);
            rowsWritten++;
            return;
        }
        PreparedStatement ps = prepare(sql);
        bind(ps, params);
        ps.addBatch();
        pendingBatches.merge(sql, 1, Integer::sum);
        rowsWritten++;
    }

    /**
     * Rows written by one statement over arrays, counted as {@link #addBatch} counts its rows (the
     * ANALYZE schedule follows the count, StatisticsSchedule).
     */
    void countRows(long rows) {
        rowsWritten += rows;
    }

    /** Rows this transaction wrote in batches (inserts, and updates of single rows). */
    long rowsWritten() {
        return rowsWritten;
    }

    /**
     * Runs the queued rows of one statement, after the rows queued before them for the same table;
     * returns the update count per row.
     */
    int[] executeBatch(WriteStatement sql) throws SQLException {
        if (!pendingBatches.containsKey(sql)) {
            return new int[0];
        }
        flushQueuedBefore(sql);
        pendingBatches.remove(sql);
        if (atOnce != null) {
            atOnce.sent(sql);
        }
        sent(sql);
        CopyRows copy = copyOf(sql);
        if (copy != null) {
            return copy(copy);
        }
        return prepare(sql).executeBatch();
    }

    /** The COPY rows of {@code sql}, or null when its rows are bound to the INSERT (H2, or not a plain INSERT). */
    private CopyRows copyOf(WriteStatement sql) throws SQLException {
        if (copies == null) {
            return null;
        }
        CopyRows copy = copies.get(sql);
        if (copy == null) {
            copy = CopyStream.copyRows(connection, sql);
            copies.put(sql, copy == null ? NOT_COPIED : copy);
        }
        return copy == NOT_COPIED ? null : copy;
    }

    /** Sends the queued rows in one COPY on this transaction's connection; one update count per row. */
    private int[] copy(CopyRows copy) throws SQLException {
        int rows = copy.rows();
        CopyStream.copyIn(connection, copy);
        int[] counts = new int[rows];
        Arrays.fill(counts, 1);
        return counts;
    }

    void executeAllBatches() throws SQLException {
        for (WriteStatement sql : new ArrayList<>(pendingBatches.keySet())) {
            executeBatch(sql);
        }
    }

    /** Whether the whole queue fits one multi-statement with the commit ({@link QueueAtOnce#canSend}). */
    boolean canSendQueueAtOnce() {
        return atOnce != null && atOnce.canSend(pendingBatches.keySet());
    }

    /** Sends the whole queue and the COMMIT in one round trip ({@link QueueAtOnce#sendAndCommit}). */
    void sendQueueAndCommit() throws SQLException {
        atOnce.sendAndCommit(connection, pendingBatches.keySet(), this::copyOf, this::prepare);
        pendingBatches.clear();
        sent(null);
    }

    /** Sends the rows queued by statements that must precede {@code sql}, oldest statement first, before it runs. */
    private void flushFor(WriteStatement sql) throws SQLException {
        sendQueuedFor(sql, false);
    }

    /** Sends the rows queued by statements that must precede {@code sql} and queued before it did. */
    private void flushQueuedBefore(WriteStatement sql) throws SQLException {
        sendQueuedFor(sql, true);
    }

    /**
     * Sends, oldest statement first, the queued rows of other statements that must precede
     * {@code sql} by their declared tables; with {@code onlyEarlier}, only of those that queued
     * before {@code sql}.
     */
    private void sendQueuedFor(WriteStatement sql, boolean onlyEarlier) throws SQLException {
        if (pendingBatches.isEmpty()) {
            return;
        }
        for (WriteStatement queued : new ArrayList<>(pendingBatches.keySet())) {
            if (queued.equals(sql)) {
                if (onlyEarlier) {
                    return;
                }
            } else if (pendingBatches.containsKey(queued) && WriteStatement.mustPrecede(queued, sql)) {
                // Sending one may have sent others (its own earlier rows): hence the containsKey.
                executeBatch(queued);
            }
        }
    }

    <T> List<T> query(WriteStatement sql, RowMapper<T> mapper, Object... params) throws SQLException {
        flushFor(sql);
        return queryPastTheQueue(sql, mapper, params);
    }

    /** A query of what the database holds, without sending queued rows first: for callers that account for them. */
    <T> List<T> queryPastTheQueue(WriteStatement sql, RowMapper<T> mapper, Object... params) throws SQLException {
        beforeStatement(sql, params);
        PreparedStatement ps = prepare(sql);
        bind(ps, params);
        List<T> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(mapper.map(rs));
            }
        }
        return rows;
    }

    boolean exists(WriteStatement sql, Object... params) throws SQLException {
        return !query(sql, rs -> Boolean.TRUE, params).isEmpty();
    }

    /** As {@link #exists}, without sending queued rows first: for callers that account for them. */
    boolean existsPastTheQueue(WriteStatement sql) throws SQLException {
        return !queryPastTheQueue(sql, rs -> Boolean.TRUE).isEmpty();
    }

    private PreparedStatement prepare(WriteStatement statement) throws SQLException {
        PreparedStatement ps = prepared.get(statement.sql());
        if (ps == null) {
            ps = connection.prepareStatement(statement.sql());
            prepared.put(statement.sql(), ps);
        }
        return ps;
    }

    /** Binds {@code params} in order, as every write-path statement is bound (ChainWriter's plain JDBC too). */
    static void bind(PreparedStatement ps, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            bind(ps, i + 1, params[i], false);
        }
    }

    /**
     * Binds one value. With {@code untypedText}, text goes without a type (pgjdbc's
     * {@code Types.OTHER}) and the database takes the column's type, as COPY's rows are encoded in
     * it ({@link CopyRows}): the rows of a COPY table hold text for numeric columns (amounts),
     * which a typed varchar parameter of a statement sent in one round trip with others
     * ({@link QueueAtOnce#sendAndCommit}) would refuse.
     */
    static void bind(PreparedStatement ps, int index, Object p, boolean untypedText) throws SQLException {
        if (p == null) {
            ps.setNull(index, Types.NULL);
        } else if (p instanceof BigInteger big) {
            ps.setBigDecimal(index, new BigDecimal(big));
        } else if (p instanceof Boolean b) {
            ps.setBoolean(index, b);
        } else if (p instanceof Integer n) {
            ps.setInt(index, n);
        } else if (p instanceof Long n) {
            ps.setLong(index, n);
        } else if (p instanceof java.sql.Array array) {
            ps.setArray(index, array);
        } else if (untypedText) {
            ps.setObject(index, p.toString(), Types.OTHER);
        } else {
            ps.setString(index, p.toString());
        }
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (PreparedStatement ps : prepared.values()) {
            try {
                ps.close();
            } catch (SQLException e) {
                first = first == null ? e : first;
            }
        }
        prepared.clear();
        if (first != null) {
            throw first;
        }
    }
}
