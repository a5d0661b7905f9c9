package io.stacksexplorer.write;

import com.google.common.collect.Lists;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Payloads committed apart from, and ahead of, their derivation (STACKS_OBSERVER_DERIVE=after-answer,
 * V202; a replay storing its next lines while it derives the previous ones): stored with the
 * 'accepted' cursor in one statement or transaction of plain JDBC, made durable, and counted in the
 * backlog until {@link ChainWriter#derivedThrough} moves the 'derived' cursor.
 */
final class AcceptedPayloads {

    private final WriteTransactions tx;

    AcceptedPayloads(WriteTransactions tx) {
        this.tx = tx;
    }

    /**
     * PostgreSQL ({@link #storesAheadOfDerivation}): stores payloads to be derived later on another
     * thread ({@link ChainWriter#derivedThrough}), in arrival order, and moves the 'accepted' cursor to the last
     * of them, in one database transaction of plain JDBC (not a {@link Statements} transaction, for the reason given at {@link #accept}): a replay
     * stores its next lines this way while its deriving thread writes the rows of the previous ones.
     * Until they are derived, the payloads are the backlog that {@link #backlog} reports and the next
     * start derives first.
     *
     * @return the payloads stored now, with their ids, in arrival order; one stored before (or twice
     *         in the list) is left out: acknowledged, nothing to derive
     */
    List<RawPayload> acceptAll(List<RawPayload> raws) {
        if (!storesAheadOfDerivation()) {
            throw new IllegalStateException("payloads are stored ahead of their derivation on PostgreSQL only");
        }
        if (raws.isEmpty()) {
            return List.of();
        }
        return tx.plainTransaction(false, c -> {
            // The new payloads by hash, in arrival order; one twice in the list is stored once.
            Map<String, RawPayload> fresh = new LinkedHashMap<>();
            for (RawPayload raw : raws) {
                if (raw.storedId() == null) {
                    fresh.putIfAbsent(raw.payloadHash(), raw);
                }
            }
            List<String> maybe = tx.writtenKeys().mayBeStored(WrittenKeys.Kind.PAYLOAD_HASHES, fresh.keySet(), anyRow -> {
                try (var probe = tx.bound(c, anyRow); ResultSet rs = probe.executeQuery()) {
                    return rs.next();
                }
            });
            queryInChunks(c, WriteSql.NODE_EVENTS_STORED_IN_CHUNK, maybe, rs -> fresh.remove(rs.getString(1)));
            if (fresh.isEmpty()) {
                return List.of();
            }
            // By COPY, as the replay's other append-only rows (CopyRows); their ids are read back.
            CopyRows copy = CopyStream.copyRows(c, WriteSql.INSERT_NODE_EVENT);
            for (RawPayload raw : fresh.values()) {
                Object[] params = {raw.receivedAt(), raw.path(), raw.payloadHash(), raw.body()};
                tx.writtenKeys().noteWrite(WriteSql.INSERT_NODE_EVENT, params);
                copy.add(params);
            }
            CopyStream.copyIn(c, copy);
            Map<String, Long> ids = new HashMap<>();
            queryInChunks(c, WriteSql.NODE_EVENT_IDS_IN_CHUNK, new ArrayList<>(fresh.keySet()),
                    rs -> ids.put(rs.getString(1), rs.getLong(2)));
            List<RawPayload> accepted = new ArrayList<>(fresh.size());
            for (RawPayload raw : fresh.values()) {
                accepted.add(new RawPayload(ids.get(raw.payloadHash()), raw.path(), raw.body(), raw.receivedAt(),
                        raw.payloadHash()));
            }
            long last = accepted.get(accepted.size() - 1).storedId();
            try (var cursor = tx.bound(c, WriteSql.ADVANCE_DERIVE_CURSOR, last, "accepted", last)) {
                cursor.executeUpdate();
            }
            return accepted;
        });
    }

    @FunctionalInterface
    private interface RowReader {
        void read(ResultSet rs) throws SQLException;
    }

    /**
     * Runs {@code inChunk}, whose parameters are {@value Statements#CHUNK} places for keys, on
     * {@code c} for {@code keys}, a chunk per query (unused places NULL), as {@link Statements}'
     * queryIn does inside a transaction of this writer.
     */
    private void queryInChunks(Connection c, WriteStatement inChunk, List<String> keys, RowReader each)
            throws SQLException {
        for (List<String> chunk : Lists.partition(keys, Statements.CHUNK)) {
            try (var query = tx.bound(c, inChunk, Arrays.copyOf(chunk.toArray(), Statements.CHUNK));
                 ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    each.read(rs);
                }
            }
        }
    }

    /**
     * Stores a payload to be derived later on another thread ({@link ChainWriter#derivedThrough}) and moves the
     * 'accepted' cursor to it, in one database transaction; once this returns the payload is
     * committed and durable ({@link #makeDurable}; on the disk too with {@code sync}) and may be
     * answered 200.
     *
     * <p>Plain JDBC, not a {@link Statements} transaction: it runs on the observer thread while the deriving
     * thread's transaction is open, and a {@link Statements} copies this writer's cached committed
     * state (tip, waiting-payload and PoX look-ups) when it opens and writes it back when it
     * commits, which would put back what the deriving thread had just changed.
     *
     * @return the stored payload's id, or null when the same payload was stored before (nothing to derive)
     */
    Long accept(RawPayload raw, boolean sync) {
        Long id = tx.onPostgres() ? acceptInOneStatement(raw) : tx.plainTransaction(false, c -> {
            String hash = raw.payloadHash();
            try (var insert = tx.bound(c, WriteSql.INSERT_NODE_EVENT_IF_NEW, raw.receivedAt(), raw.path(), hash,
                    raw.body(), hash)) {
                if (insert.executeUpdate() == 0) {
                    return null;
                }
            }
            long stored;
            try (var select = tx.bound(c, WriteSql.NODE_EVENT_ID, hash); var rs = select.executeQuery()) {
                rs.next();
                stored = rs.getLong(1);
            }
            try (var update = tx.bound(c, WriteSql.ADVANCE_DERIVE_CURSOR, stored, "accepted", stored)) {
                update.executeUpdate();
            }
            return stored;
        });
        // Also when it was stored before: the earlier commit may not be in the file yet.
        makeDurable(sync);
        return id;
    }

    /**
     * PostgreSQL: the payload row and the 'accepted' cursor are one statement, run on a pooled
     * connection in autocommit mode, so it commits (and, with synchronous_commit on, reaches the
     * WAL on the disk) with its own Sync message: one round trip to the server, where a transaction
     * takes two (the statement, then COMMIT) plus the transaction manager's bookkeeping around them.
     *
     * @return the stored id, or null for a payload stored before
     */
    private Long acceptInOneStatement(RawPayload raw) {
        try (Connection c = tx.pool().getConnection()) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            try (var accept = tx.bound(c, WriteSql.ACCEPT_PAYLOAD_POSTGRESQL, raw.receivedAt(), raw.path(),
                    raw.payloadHash(), raw.body()); var rs = accept.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        } catch (SQLException e) {
            throw new StorageException("write failed: " + e.getMessage(), e);
        }
    }



    /**
     * Whether payloads may be committed apart from, and ahead of, their derivation ({@link #acceptAll},
     * {@link #accept}): on PostgreSQL. Not on H2, where deriving after the answer once wrote a row
     * twice in a crash test, not understood yet (docs/operations.md).
     */
    boolean storesAheadOfDerivation() {
        return tx.onPostgres();
    }
    /**
     * Makes every committed change as durable as a 200 from the event observer promises. On H2,
     * {@code CHECKPOINT} writes the commits made since H2's last write to its file (H2 writes them
     * from a background thread up to its write delay later, see StorageSettings), so they survive
     * the process being killed; with {@code sync} ({@code H2_FSYNC=true}) {@code CHECKPOINT SYNC}
     * also forces the file to the disk, so they survive a power loss. On PostgreSQL nothing: every
     * commit is already flushed to its WAL (fsync and synchronous_commit on by default). An
     * in-memory H2 database has no file, and a checkpoint does nothing there.
     */
    void makeDurable(boolean sync) {
        if (tx.onPostgres()) {
            return;
        }
        // Plain JDBC: it may run on the observer thread beside the deriving thread (see accept).
        tx.plainTransaction(false, c -> {
            try (var checkpoint = tx.bound(c, sync ? WriteSql.H2_CHECKPOINT_SYNC : WriteSql.H2_CHECKPOINT)) {
                checkpoint.execute();
            }
            return null;
        });
    }

    ChainWriter.Backlog backlog() {
        return tx.plainTransaction(true, c -> {
            long derived = 0;
            long accepted = 0;
            try (var select = tx.bound(c, WriteSql.DERIVE_CURSORS); var rs = select.executeQuery()) {
                while (rs.next()) {
                    if ("derived".equals(rs.getString(1))) {
                        derived = rs.getLong(2);
                    } else if ("accepted".equals(rs.getString(1))) {
                        accepted = rs.getLong(2);
                    }
                }
            }
            return new ChainWriter.Backlog(derived, accepted);
        });
    }
}
