package io.stacksexplorer.write;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.stacksexplorer.write.Table.*;
import static io.stacksexplorer.write.WriteStatement.reading;
import static io.stacksexplorer.write.WriteStatement.touchingNoTable;
import static io.stacksexplorer.write.WriteStatement.writing;

/**
 * Every statement of the write path, in one place, each with the tables it reads and writes
 * ({@link WriteStatement}: the order of queued rows follows them). Portable SQL, the same text on H2
 * and PostgreSQL (counters are upserted as UPDATE-then-INSERT instead of a vendor upsert; there is
 * one writer, so nothing races between the two), except the few named {@code …_POSTGRESQL}.
 */
final class WriteSql {

    private WriteSql() {
    }

    /** The places of a chunk of keys ({@link Statements#queryIn}: unused places are bound to NULL). */
    static final String CHUNK_OF_KEYS = places(Statements.CHUNK);

    static String places(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    // --- blocks -------------------------------------------------------------------------------

    static final WriteStatement BLOCK_BY_INDEX_HASH = reading(BLOCKS).sql("""
            SELECT index_block_hash, parent_index_block_hash, block_height, canonical, block_hash, block_time
            FROM blocks WHERE index_block_hash = ?""");

    /** For a chunk of hashes ({@link Statements#queryIn}). */
    static final WriteStatement BLOCKS_STORED_IN_CHUNK = reading(BLOCKS).sql(
            "SELECT index_block_hash FROM blocks WHERE index_block_hash IN (" + CHUNK_OF_KEYS + ")");

    static final WriteStatement ANY_BLOCK = reading(BLOCKS).sql("SELECT 1 FROM blocks FETCH FIRST 1 ROWS ONLY");
    static final WriteStatement ANY_TX = reading(TXS).sql("SELECT 1 FROM txs FETCH FIRST 1 ROWS ONLY");
    static final WriteStatement ANY_MEMPOOL_TX = reading(MEMPOOL_TXS).sql(
            "SELECT 1 FROM mempool_txs FETCH FIRST 1 ROWS ONLY");
    static final WriteStatement ANY_NODE_EVENT = reading(NODE_EVENTS).sql(
            "SELECT 1 FROM node_events FETCH FIRST 1 ROWS ONLY");
    static final WriteStatement ANY_PRINCIPAL_COUNT = reading(PRINCIPAL_STATS).sql(
            "SELECT 1 FROM principal_stats FETCH FIRST 1 ROWS ONLY");
    static final WriteStatement ANY_CONTRACT_LOG_COUNT = reading(CONTRACT_LOG_STATS).sql(
            "SELECT 1 FROM contract_log_stats FETCH FIRST 1 ROWS ONLY");

    static final WriteStatement CANONICAL_BLOCKS_ABOVE = reading(BLOCKS).sql("""
            SELECT index_block_hash, block_height FROM blocks WHERE canonical = TRUE AND block_height > ?""");

    static final WriteStatement INSERT_BLOCK = writing(BLOCKS).sql("""
            INSERT INTO blocks (index_block_hash, block_hash, block_height, parent_block_hash,
                parent_index_block_hash, parent_microblock_hash, parent_microblock_sequence, block_time,
                burn_block_time, burn_block_hash, burn_block_height, miner_txid, tx_count,
                execution_cost_read_count, execution_cost_read_length, execution_cost_runtime,
                execution_cost_write_count, execution_cost_write_length, canonical, tenure_height)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");

    // --- transactions and what hangs from them --------------------------------------------------

    static final WriteStatement INSERT_TX = writing(TXS).sql("""
            INSERT INTO txs (tx_id, index_block_hash, block_hash, block_height, block_time, burn_block_time,
                burn_block_height, parent_burn_block_time, parent_block_hash, parent_index_block_hash, tx_index,
                microblock_hash, microblock_sequence, is_unanchored, canonical, microblock_canonical, tx_type,
                tx_status, nonce, fee_rate, sender_address, sponsored, sponsor_address, sponsor_nonce,
                contract_id, raw_tx, raw_result, event_count, execution_cost_read_count,
                execution_cost_read_length, execution_cost_runtime, execution_cost_write_count,
                execution_cost_write_length, vm_error)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                ?, ?, ?, ?, ?, ?)""");

    /** A transaction this build cannot read yet ({@link HeldTransaction}); emptied by a rebuild. */
    static final WriteStatement INSERT_HELD_TX = writing(HELD_TXS).sql("""
            INSERT INTO held_txs (tx_id, index_block_hash, block_height, tx_index, tx_status, reason, byte_offset)
            VALUES (?, ?, ?, ?, ?, ?, ?)""");

    static final WriteStatement INSERT_EVENT = writing(TX_EVENTS).sql("""
            INSERT INTO tx_events (tx_id, index_block_hash, event_index, event_type, block_height,
                microblock_sequence, tx_index, canonical, microblock_canonical, is_unanchored, contract_id, topic,
                value_hex, asset_event_type, asset_id, sender, recipient, amount, memo, locked_amount,
                unlock_height, locked_address, log_position)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");

    static final WriteStatement INSERT_PRINCIPAL_TX = writing(PRINCIPAL_TXS).sql("""
            INSERT INTO principal_txs (principal, tx_id, index_block_hash, block_height, microblock_sequence,
                tx_index, canonical, microblock_canonical, stx_sent, stx_received, stx_transfer, stx_mint,
                stx_burn, ft_transfer, ft_mint, ft_burn, nft_transfer, nft_mint, nft_burn, history_position)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");

    static final WriteStatement INSERT_SMART_CONTRACT = writing(SMART_CONTRACTS).sql("""
            INSERT INTO smart_contracts (contract_id, tx_id, index_block_hash, block_height, microblock_sequence,
                tx_index, canonical, microblock_canonical, tx_status, abi)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");

    // --- reorgs: flip everything hanging from one block -----------------------------------------

    static final WriteStatement SET_BLOCK_CANONICAL = writing(BLOCKS).sql(
            "UPDATE blocks SET canonical = ? WHERE index_block_hash = ?");
    static final WriteStatement SET_TXS_CANONICAL = writing(TXS).sql(
            "UPDATE txs SET canonical = ? WHERE index_block_hash = ?");
    // Positions are dropped on every flip; the rows still served are renumbered (Positions). The
    // events and the history are found by the block's height and hash, the leading columns of
    // their block keys (V205).
    static final WriteStatement SET_EVENTS_CANONICAL = writing(TX_EVENTS).sql(
            "UPDATE tx_events SET canonical = ?, log_position = NULL WHERE block_height = ? AND index_block_hash = ?");
    static final WriteStatement SET_PRINCIPAL_TXS_CANONICAL = writing(PRINCIPAL_TXS).sql("""
            UPDATE principal_txs SET canonical = ?, history_position = NULL
            WHERE block_height = ? AND index_block_hash = ?""");
    static final WriteStatement SET_CONTRACTS_CANONICAL = writing(SMART_CONTRACTS).sql(
            "UPDATE smart_contracts SET canonical = ? WHERE index_block_hash = ?");

    static final WriteStatement TX_IDS_OF_BLOCK = reading(TXS).sql("SELECT tx_id FROM txs WHERE index_block_hash = ?");

    static final WriteStatement CANONICAL_TX_EXISTS = reading(TXS).sql(
            "SELECT 1 FROM txs WHERE tx_id = ? AND canonical = TRUE AND microblock_canonical = TRUE");

    // --- counters -----------------------------------------------------------------------------

    /** For a chunk of keys ({@link Statements#queryIn}). */
    static final WriteStatement PRINCIPAL_COUNTS_IN_CHUNK = reading(PRINCIPAL_STATS).sql(
            "SELECT principal, tx_count FROM principal_stats WHERE principal IN (" + CHUNK_OF_KEYS + ")");
    static final WriteStatement CONTRACT_LOG_COUNTS_IN_CHUNK = reading(CONTRACT_LOG_STATS).sql(
            "SELECT contract_id, event_count FROM contract_log_stats WHERE contract_id IN (" + CHUNK_OF_KEYS + ")");
    static final WriteStatement PRINCIPAL_COUNT = reading(PRINCIPAL_STATS).sql(
            "SELECT tx_count FROM principal_stats WHERE principal = ?");
    static final WriteStatement SET_PRINCIPAL_COUNT = writing(PRINCIPAL_STATS).sql(
            "UPDATE principal_stats SET tx_count = ? WHERE principal = ?");
    /** PostgreSQL: many counters set in one statement (arrays of keys and values), whether their rows exist or not. */
    static final WriteStatement SET_PRINCIPAL_COUNTS_POSTGRESQL = writing(PRINCIPAL_STATS).sql("""
            INSERT INTO principal_stats (principal, tx_count) SELECT k, n FROM UNNEST(?::varchar[], ?::bigint[]) AS v (k, n)
            ON CONFLICT (principal) DO UPDATE SET tx_count = EXCLUDED.tx_count""");
    static final WriteStatement INSERT_PRINCIPAL_COUNT = writing(PRINCIPAL_STATS).sql(
            "INSERT INTO principal_stats (tx_count, principal) VALUES (?, ?)");
    static final WriteStatement CONTRACT_LOG_COUNT = reading(CONTRACT_LOG_STATS).sql(
            "SELECT event_count FROM contract_log_stats WHERE contract_id = ?");
    static final WriteStatement SET_CONTRACT_LOG_COUNT = writing(CONTRACT_LOG_STATS).sql(
            "UPDATE contract_log_stats SET event_count = ? WHERE contract_id = ?");
    static final WriteStatement SET_CONTRACT_LOG_COUNTS_POSTGRESQL = writing(CONTRACT_LOG_STATS).sql("""
            INSERT INTO contract_log_stats (contract_id, event_count) SELECT k, n FROM UNNEST(?::varchar[], ?::bigint[]) AS v (k, n)
            ON CONFLICT (contract_id) DO UPDATE SET event_count = EXCLUDED.event_count""");
    static final WriteStatement INSERT_CONTRACT_LOG_COUNT = writing(CONTRACT_LOG_STATS).sql(
            "INSERT INTO contract_log_stats (event_count, contract_id) VALUES (?, ?)");
    static final WriteStatement ADD_MEMPOOL_COUNT = writing(MEMPOOL_PRINCIPAL_STATS).sql(
            "UPDATE mempool_principal_stats SET pending_count = pending_count + ? WHERE principal = ?");
    /**
     * PostgreSQL: every principal's pending count in one statement, whether its row exists or not.
     * A mempool delivery changes a few principals, most of them known: update-then-insert cost two
     * round trips for most deliveries (1,766 of 3,599 on a 10,000-transaction mixed log).
     */
    static final WriteStatement UPSERT_MEMPOOL_COUNTS_POSTGRESQL = writing(MEMPOOL_PRINCIPAL_STATS).sql("""
            INSERT INTO mempool_principal_stats (principal, pending_count)
            SELECT k, d FROM UNNEST(?::varchar[], ?::bigint[]) AS v (k, d)
            ON CONFLICT (principal) DO UPDATE SET pending_count = mempool_principal_stats.pending_count
                + EXCLUDED.pending_count""");
    /**
     * PostgreSQL: {@link #UPSERT_MEMPOOL_COUNTS_POSTGRESQL} and {@link #BUMP_MEMPOOL_VERSION} in one
     * statement, since a change of the mempool changes both: one round trip less per mempool
     * delivery and per block that mines pending transactions.
     */
    static final WriteStatement UPSERT_MEMPOOL_COUNTS_BUMPING_VERSION_POSTGRESQL =
            writing(MEMPOOL_PRINCIPAL_STATS, CHAIN_STATE).sql("""
            WITH version AS (UPDATE chain_state SET mempool_version = mempool_version + 1 WHERE id = 1)
            INSERT INTO mempool_principal_stats (principal, pending_count)
            SELECT k, d FROM UNNEST(?::varchar[], ?::bigint[]) AS v (k, d)
            ON CONFLICT (principal) DO UPDATE SET pending_count = mempool_principal_stats.pending_count
                + EXCLUDED.pending_count""");
    static final WriteStatement INSERT_MEMPOOL_COUNT = writing(MEMPOOL_PRINCIPAL_STATS).sql(
            "INSERT INTO mempool_principal_stats (pending_count, principal) VALUES (?, ?)");

    // --- chain state --------------------------------------------------------------------------

    static final WriteStatement SET_TIP = writing(CHAIN_STATE).sql("""
            UPDATE chain_state SET block_height = ?, block_hash = ?, index_block_hash = ?, burn_block_height = ?,
                microblock_hash = NULL, microblock_sequence = NULL
            WHERE id = 1""");

    static final WriteStatement BUMP_MEMPOOL_VERSION = writing(CHAIN_STATE).sql(
            "UPDATE chain_state SET mempool_version = mempool_version + 1 WHERE id = 1");

    /** A renumbering moved served positions (write.Positions, migration V210). */
    static final WriteStatement BUMP_POSITIONS_VERSION = writing(CHAIN_STATE).sql(
            "UPDATE chain_state SET positions_version = positions_version + 1 WHERE id = 1");

    static final WriteStatement SET_POX_UNLOCK_HEIGHTS = writing(CHAIN_STATE).sql("""
            UPDATE chain_state SET pox_v1_unlock_height = COALESCE(?, pox_v1_unlock_height),
                pox_v2_unlock_height = COALESCE(?, pox_v2_unlock_height),
                pox_v3_unlock_height = COALESCE(?, pox_v3_unlock_height)
            WHERE id = 1""");

    static final WriteStatement TIP = reading(CHAIN_STATE).sql(
            "SELECT block_height, index_block_hash FROM chain_state WHERE id = 1");

    static final WriteStatement SET_TIP_MICROBLOCK = writing(CHAIN_STATE).sql("""
            UPDATE chain_state SET microblock_hash = ?, microblock_sequence = ?
            WHERE id = 1 AND index_block_hash = ? AND (microblock_sequence IS NULL OR microblock_sequence < ?)""");

    // --- orphaned transactions back to the mempool ----------------------------------------------

    static final WriteStatement TX_IN_BLOCK = reading(TXS).sql(
            "SELECT raw_tx, block_time FROM txs WHERE tx_id = ? AND index_block_hash = ?");

    // --- microblocks --------------------------------------------------------------------------

    /**
     * Of a chunk of microblock hashes, those an anchor block (any fork) confirmed. {@code <> '0x'}
     * (anchor-block transactions) repeats the partial index's predicate (PostgreSQL, V105) for
     * generic plans.
     */
    static final WriteStatement CONFIRMED_MICROBLOCKS_IN_CHUNK = reading(TXS).sql("""
            SELECT DISTINCT microblock_hash FROM txs
            WHERE microblock_hash <> '0x' AND is_unanchored = FALSE AND microblock_hash IN (""" + CHUNK_OF_KEYS + ")");

    /** The rows (transaction id, block or microblock) of a chunk of transaction ids. */
    static final WriteStatement TX_ROWS_IN_CHUNK = reading(TXS).sql(
            "SELECT tx_id, index_block_hash FROM txs WHERE tx_id IN (" + CHUNK_OF_KEYS + ")");

    /**
     * Served unanchored streams (keyed by microblock hash) with their height; an anchor block
     * settles those at or below its own. Only served ones: streams settled before stay unanchored
     * and non-canonical forever, and reading them again at every block made this query grow with
     * the chain (index V103, partial since V105).
     */
    static final WriteStatement SERVED_UNANCHORED = reading(TXS).sql("""
            SELECT DISTINCT index_block_hash, block_height FROM txs
            WHERE is_unanchored = TRUE AND microblock_canonical = TRUE""");

    static final WriteStatement SET_TXS_MICROBLOCK_CANONICAL = writing(TXS).sql(
            "UPDATE txs SET microblock_canonical = ? WHERE index_block_hash = ?");
    static final WriteStatement SET_EVENTS_MICROBLOCK_CANONICAL = writing(TX_EVENTS).sql("""
            UPDATE tx_events SET microblock_canonical = ?, log_position = NULL
            WHERE block_height = ? AND index_block_hash = ?""");
    static final WriteStatement SET_PRINCIPAL_TXS_MICROBLOCK_CANONICAL = writing(PRINCIPAL_TXS).sql("""
            UPDATE principal_txs SET microblock_canonical = ?, history_position = NULL
            WHERE block_height = ? AND index_block_hash = ?""");
    static final WriteStatement SET_CONTRACTS_MICROBLOCK_CANONICAL = writing(SMART_CONTRACTS).sql(
            "UPDATE smart_contracts SET microblock_canonical = ? WHERE index_block_hash = ?");

    static final WriteStatement DELETE_TXS_OF = writing(TXS).sql("DELETE FROM txs WHERE index_block_hash = ?");
    /** Where confirmed microblock transactions stood while unanchored (their rows are keyed by microblock hash). */
    static final WriteStatement UNANCHORED_PLACES_IN_CHUNK = reading(TXS).sql("""
            SELECT index_block_hash, tx_id, tx_index, block_time, block_height FROM txs
            WHERE is_unanchored = TRUE AND index_block_hash IN (""" + CHUNK_OF_KEYS + ")");
    static final WriteStatement DELETE_EVENTS_OF = writing(TX_EVENTS).sql(
            "DELETE FROM tx_events WHERE block_height = ? AND index_block_hash = ?");
    static final WriteStatement DELETE_PRINCIPAL_TXS_OF = writing(PRINCIPAL_TXS).sql(
            "DELETE FROM principal_txs WHERE block_height = ? AND index_block_hash = ?");
    static final WriteStatement DELETE_CONTRACTS_OF = writing(SMART_CONTRACTS).sql(
            "DELETE FROM smart_contracts WHERE index_block_hash = ?");

    // --- raw payloads -------------------------------------------------------------------------

    static final WriteStatement NODE_EVENT_EXISTS = reading(NODE_EVENTS).sql(
            "SELECT 1 FROM node_events WHERE payload_hash = ?");
    static final WriteStatement INSERT_NODE_EVENT = writing(NODE_EVENTS).sql("""
            INSERT INTO node_events (received_at, event_path, payload_hash, payload) VALUES (?, ?, ?, ?)""");
    static final WriteStatement INSERT_NODE_EVENT_IF_NEW = writing(NODE_EVENTS).reading(NODE_EVENTS).sql("""
            INSERT INTO node_events (received_at, event_path, payload_hash, payload)
            SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM node_events WHERE payload_hash = ?)""");
    /** For a chunk of hashes ({@link Statements#queryIn}). */
    static final WriteStatement NODE_EVENTS_STORED_IN_CHUNK = reading(NODE_EVENTS).sql(
            "SELECT payload_hash FROM node_events WHERE payload_hash IN (" + CHUNK_OF_KEYS + ")");
    /** For a chunk of hashes ({@link Statements#CHUNK}): the ids of the payloads stored under them. */
    static final WriteStatement NODE_EVENT_IDS_IN_CHUNK = reading(NODE_EVENTS).sql(
            "SELECT payload_hash, id FROM node_events WHERE payload_hash IN (" + CHUNK_OF_KEYS + ")");
    static final WriteStatement NODE_EVENT_ID = reading(NODE_EVENTS).sql(
            "SELECT id FROM node_events WHERE payload_hash = ?");
    /** Whether any payload waits for its parent block (partial index on PostgreSQL, V105). */
    static final WriteStatement ANY_DEFERRED = reading(NODE_EVENTS).sql(
            "SELECT 1 FROM node_events WHERE deferred_parent IS NOT NULL FETCH FIRST 1 ROWS ONLY");
    static final WriteStatement SET_DEFERRED = writing(NODE_EVENTS).sql(
            "UPDATE node_events SET deferred_parent = ? WHERE id = ?");
    /** H2: write the commits made since the last write to the file (see ChainWriter#makeDurable). */
    static final WriteStatement H2_CHECKPOINT = touchingNoTable().sql("CHECKPOINT");
    /** H2: the same, then force the file to the disk. */
    static final WriteStatement H2_CHECKPOINT_SYNC = touchingNoTable().sql("CHECKPOINT SYNC");
    static final WriteStatement CLEAR_DEFERRED_OF = writing(NODE_EVENTS).sql(
            "UPDATE node_events SET deferred_parent = NULL WHERE id = ? AND deferred_parent IS NOT NULL");
    static final WriteStatement DEFERRED_OF = reading(NODE_EVENTS).sql("""
            SELECT id, event_path, payload, received_at FROM node_events WHERE deferred_parent = ? ORDER BY id""");
    static final WriteStatement NODE_EVENTS_AFTER = reading(NODE_EVENTS).sql("""
            SELECT id, event_path, payload, received_at FROM node_events WHERE id > ? ORDER BY id
            FETCH FIRST 200 ROWS ONLY""");
    /** The stored payloads {@code (derived, accepted]} the deriving thread has not written yet, a page at a time. */
    static final WriteStatement NODE_EVENTS_BETWEEN = reading(NODE_EVENTS).sql("""
            SELECT id, event_path, payload, received_at FROM node_events WHERE id > ? AND id <= ? ORDER BY id
            FETCH FIRST 200 ROWS ONLY""");

    // --- derivation after the answer (V202) ---------------------------------------------------

    /**
     * PostgreSQL: a payload stored to be derived after its answer, with the 'accepted' cursor moved to
     * it, in one statement (one round trip before the commit instead of three); no row when the same
     * payload was stored before.
     */
    static final WriteStatement ACCEPT_PAYLOAD_POSTGRESQL = writing(NODE_EVENTS, DERIVE_CURSOR).sql("""
            WITH stored AS (
                INSERT INTO node_events (received_at, event_path, payload_hash, payload) VALUES (?, ?, ?, ?)
                ON CONFLICT (payload_hash) DO NOTHING RETURNING id)
            UPDATE derive_cursor SET payload_id = stored.id FROM stored WHERE name = 'accepted'
            RETURNING payload_id""");
    static final WriteStatement DERIVE_CURSORS = reading(DERIVE_CURSOR).sql(
            "SELECT name, payload_id FROM derive_cursor");
    /** Only forward: the deriving thread and a rebuild may both move 'derived'. */
    static final WriteStatement ADVANCE_DERIVE_CURSOR = writing(DERIVE_CURSOR).sql(
            "UPDATE derive_cursor SET payload_id = ? WHERE name = ? AND payload_id < ?");

    /**
     * PostgreSQL: the SQL type of each column of a table, for the inserts over arrays that carry a
     * delivery's rows (Statements#sendQueueAndCommit); the table is found on the search path.
     */
    static final WriteStatement COLUMN_TYPES_POSTGRESQL = touchingNoTable().sql("""
            SELECT attname, format_type(atttypid, NULL) FROM pg_attribute
            WHERE attrelid = to_regclass(?) AND attnum > 0 AND NOT attisdropped""");

    static final WriteStatement COUNT_NODE_EVENTS = reading(NODE_EVENTS).sql("SELECT COUNT(*) FROM node_events");

    /** PostgreSQL: fresh planner statistics of every written table (after a bulk load). */
    static final WriteStatement ANALYZE_POSTGRESQL = reading(BLOCKS, TXS, TX_EVENTS, PRINCIPAL_TXS, PRINCIPAL_STATS,
            CONTRACT_LOG_STATS, SMART_CONTRACTS, MEMPOOL_TXS, MEMPOOL_PRINCIPALS, MEMPOOL_PRINCIPAL_STATS, CHAIN_STATE,
            NODE_EVENTS).sql("""
            ANALYZE blocks, txs, tx_events, principal_txs, principal_stats, contract_log_stats, smart_contracts,
                mempool_txs, mempool_principals, mempool_principal_stats, chain_state, node_events""");

    /** PostgreSQL, for the rest of the transaction: its commit does not wait for the WAL to reach the disk. */
    static final WriteStatement COMMIT_WITHOUT_WAITING_FOR_THE_DISK = touchingNoTable().sql(
            "SET LOCAL synchronous_commit TO OFF");

    /** For the rest of the transaction: ANALYZE samples 3,000 rows per table (the default, 100, samples 30,000). */
    static final WriteStatement QUICK_STATISTICS = touchingNoTable().sql("SET LOCAL default_statistics_target = 10");

    /** Everything derived, emptied before a rebuild (node_events stays). */
    static final List<WriteStatement> CLEAR_DERIVED = List.of(
            writing(TX_EVENTS).sql("DELETE FROM tx_events"),
            writing(PRINCIPAL_TXS).sql("DELETE FROM principal_txs"),
            writing(SMART_CONTRACTS).sql("DELETE FROM smart_contracts"),
            writing(TXS).sql("DELETE FROM txs"),
            writing(BLOCKS).sql("DELETE FROM blocks"),
            writing(PRINCIPAL_STATS).sql("DELETE FROM principal_stats"),
            writing(CONTRACT_LOG_STATS).sql("DELETE FROM contract_log_stats"),
            writing(MEMPOOL_PRINCIPALS).sql("DELETE FROM mempool_principals"),
            writing(MEMPOOL_PRINCIPAL_STATS).sql("DELETE FROM mempool_principal_stats"),
            writing(MEMPOOL_TXS).sql("DELETE FROM mempool_txs"),
            writing(HELD_TXS).sql("DELETE FROM held_txs"),
            writing(NODE_EVENTS).sql("UPDATE node_events SET deferred_parent = NULL"),
            writing(CHAIN_STATE).sql("""
            UPDATE chain_state SET block_height = NULL, block_hash = NULL, index_block_hash = NULL,
                burn_block_height = NULL, microblock_hash = NULL, microblock_sequence = NULL,
                pox_v1_unlock_height = NULL, pox_v2_unlock_height = NULL, pox_v3_unlock_height = NULL,
                mempool_version = mempool_version + 1 WHERE id = 1"""));
}

