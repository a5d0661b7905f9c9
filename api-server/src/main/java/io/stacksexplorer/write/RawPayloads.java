package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.List;

/**
 * The node's payloads as stored ({@code node_events}): every payload is kept verbatim before
 * anything is derived from it (a rebuild derives the tables again from them), and one whose parent
 * block has not arrived is marked as waiting for it.
 */
final class RawPayloads {

    private RawPayloads() {
    }

    /** Stores a new raw payload; false when the same payload was stored before (nothing to derive). */
    static boolean storeRaw(Statements sql, RawPayload raw) throws SQLException {
        if (raw == null || raw.storedId() != null) {
            return true;
        }
        Boolean announced = sql.announcements().storeNewPayload(raw);
        if (announced != null) {
            return announced;
        }
        String hash = raw.payloadHash();
        if (sql.presumesNewPayloads()) {
            // Queued with the transaction's last statements; a payload seen before fails the commit.
            sql.addBatch(WriteSql.INSERT_NODE_EVENT, raw.receivedAt(), raw.path(), hash, raw.body());
            return true;
        }
        // One round trip: inserted (new) or not (seen before).
        return sql.update(WriteSql.INSERT_NODE_EVENT_IF_NEW, raw.receivedAt(), raw.path(), hash, raw.body(), hash) == 1;
    }

    /** Keeps a payload until the block {@code parentIndexBlockHash} arrives ({@link ChainWriter#deferredPayloads}). */
    static void defer(Statements sql, RawPayload raw, String parentIndexBlockHash) throws SQLException {
        sql.update(WriteSql.SET_DEFERRED, parentIndexBlockHash, rawId(sql, raw));
        sql.deferredPayloadsChanged();
    }

    /**
     * A stored payload being derived (its parent arrived, a rebuild, or stored before its derivation)
     * no longer waits. Asked only while some payload waits: a replay storing ahead and an observer
     * deriving after its answers derive every block from a stored payload, and a statement per block
     * that changes nothing was a round trip each.
     */
    static void undefer(Statements sql, RawPayload raw) throws SQLException {
        if (raw != null && raw.storedId() != null && !sql.noDeferredPayloads()
                && sql.update(WriteSql.CLEAR_DEFERRED_OF, raw.storedId()) > 0) {
            sql.deferredPayloadsChanged();
        }
    }

    private static long rawId(Statements sql, RawPayload raw) throws SQLException {
        sql.flushPayloads();
        return raw.storedId() != null ? raw.storedId()
                : sql.query(WriteSql.NODE_EVENT_ID, rs -> rs.getLong(1), raw.payloadHash()).get(0);
    }

    static StoredPayload storedPayload(java.sql.ResultSet rs) throws SQLException {
        return new StoredPayload(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4));
    }

    /** Payloads kept until their parent block {@code indexBlockHash} arrived, in arrival order. */
    static List<StoredPayload> waitingFor(Statements sql, String indexBlockHash) throws SQLException {
        if (sql.noDeferredPayloads()) {
            return List.of();
        }
        sql.flushPayloads();
        return sql.query(WriteSql.DEFERRED_OF, RawPayloads::storedPayload, indexBlockHash);
    }

    /** Stored payloads with {@code afterId < id <= throughId}, in arrival order, a page at a time. */
    static List<StoredPayload> between(Statements sql, long afterId, long throughId) throws SQLException {
        sql.flushPayloads();
        return throughId == Long.MAX_VALUE
                ? sql.query(WriteSql.NODE_EVENTS_AFTER, RawPayloads::storedPayload, afterId)
                : sql.query(WriteSql.NODE_EVENTS_BETWEEN, RawPayloads::storedPayload, afterId, throughId);
    }

    static long count(Statements sql) throws SQLException {
        sql.flushPayloads();
        return sql.query(WriteSql.COUNT_NODE_EVENTS, rs -> rs.getLong(1)).get(0);
    }
}
