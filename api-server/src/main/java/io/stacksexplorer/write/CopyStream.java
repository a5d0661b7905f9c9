package io.stacksexplorer.write;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PostgreSQL's binary COPY for the rows of a plain INSERT ({@link CopyRows} encodes them): the
 * target's column types from the catalog, and the stream that sends the rows.
 */
final class CopyStream {

    private CopyStream() {
    }

    /**
     * Empty COPY rows for {@code insert} on {@code connection} (PostgreSQL), with its table's
     * column types, or null when it is not a plain INSERT ({@link CopyRows#target}).
     */
    static CopyRows copyRows(Connection connection, WriteStatement insert) throws SQLException {
        CopyRows.Target target = CopyRows.target(insert.sql());
        return target == null ? null : new CopyRows(target, columnTypes(connection, target));
    }

    /** Sends {@code copy}'s rows in one COPY on {@code connection} (PostgreSQL), then clears them. */
    static void copyIn(Connection connection, CopyRows copy) throws SQLException {
        // Chunk by chunk into the stream (CopyRows#CHUNK_BYTES): no copy of the whole stream is made.
        CopyIn stream = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copy.copySql());
        try {
            for (byte[] chunk : copy.chunks()) {
                stream.writeToCopy(chunk, 0, chunk.length);
            }
            stream.endCopy();
        } catch (SQLException | RuntimeException e) {
            if (stream.isActive()) {
                // Failed mid-way: end the COPY, so that the connection is left in a usable state.
                try {
                    stream.cancelCopy();
                } catch (SQLException cancel) {
                    e.addSuppressed(cancel);
                }
            }
            throw e;
        } finally {
            copy.clear();
        }
    }

    /**
     * Column types by table, read from the catalog once per process: every schema and database one
     * build writes to was made by the same migrations, so a table's columns have the same types in
     * all of them.
     */
    private static final Map<String, Map<String, String>> COLUMN_TYPES = new ConcurrentHashMap<>();

    /** The SQL types of {@code target}'s columns, in its column order. */
    private static List<String> columnTypes(Connection connection, CopyRows.Target target) throws SQLException {
        Map<String, String> byColumn = COLUMN_TYPES.get(target.table());
        if (byColumn == null) {
            byColumn = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(WriteSql.COLUMN_TYPES_POSTGRESQL.sql())) {
                ps.setString(1, target.table());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        byColumn.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
            COLUMN_TYPES.put(target.table(), Map.copyOf(byColumn));
        }
        List<String> types = new ArrayList<>();
        for (String column : target.columnNames()) {
            String type = byColumn.get(column.toLowerCase(Locale.ROOT));
            if (type == null) {
                throw new SQLException("no column " + column + " in table " + target.table());
            }
            types.add(type);
        }
        return types;
    }
}
