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
    private static final String CHUNK_OF_KEYS = places(Statements.CHUNK);

    private static String places(int count) {
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

    // --- positions (V10): renumbering the newest rows of one principal or contract ---------------

    /** Principals whose history one block (at its height: all rows of a block share it) holds. */
    static final WriteStatement HISTORY_KEYS_OF_BLOCK = reading(PRINCIPAL_TXS).sql(
            "SELECT DISTINCT principal FROM principal_txs WHERE block_height = ? AND index_block_hash = ?");
    /*
     * Renumbering reads the position index (V10), not an index in chain order: served rows, and only
     * they, carry a position, dense and in chain order, once a transaction ends. So the newest served
     * row below the fork height is found by walking that index down from the top (past the rows
     * being renumbered anyway), and the rows to renumber are those numbered above it plus the served
     * rows of the blocks that changed (their positions were cleared or never set).
     * The ORDER BY names the principal (a constant here) so that H2 too walks the index backwards:
     * its planner uses an index's order only when the ORDER BY spells the index's leading columns,
     * and without them it read a principal's whole history for every block that touched it.
     */
    /**
     * The position of the newest numbered row below a height (0 when none), then the rows numbered
     * above it (key columns, chain-order columns, position), in one statement: a row of the
     * position alone (nulls after it) when none is numbered above.
     */
    static final WriteStatement HISTORY_RENUMBER_FROM = reading(PRINCIPAL_TXS).sql("""
            SELECT b.below, t.tx_id, t.index_block_hash, t.block_height, t.microblock_sequence, t.tx_index,
                t.history_position
            FROM (SELECT COALESCE((SELECT history_position FROM principal_txs
                    WHERE principal = ? AND history_position IS NOT NULL AND block_height < ?
                    ORDER BY principal DESC, history_position DESC FETCH FIRST 1 ROWS ONLY), 0) AS below) b
            LEFT JOIN principal_txs t ON t.principal = ? AND t.history_position > b.below""");
    /**
     * Served rows of one block, each led by its principal, then the same columns. One read per
     * changed block, not per block and principal; and it names only the block (height and hash), so that H2 cannot
     * choose an index that leads with the principal (or contract) and read its whole list.
     */
    static final WriteStatement HISTORY_SERVED_IN_BLOCK = reading(PRINCIPAL_TXS).sql("""
            SELECT principal, tx_id, index_block_hash, block_height, microblock_sequence, tx_index, history_position
            FROM principal_txs
            WHERE block_height = ? AND index_block_hash = ? AND canonical = TRUE AND microblock_canonical = TRUE""");
    static final WriteStatement SET_HISTORY_POSITION = writing(PRINCIPAL_TXS).sql("""
            UPDATE principal_txs SET history_position = ?
            WHERE principal = ? AND tx_id = ? AND index_block_hash = ? AND block_height = ?""");

    static final WriteStatement LOG_KEYS_OF_BLOCK = reading(TX_EVENTS).sql("""
            SELECT DISTINCT contract_id FROM tx_events
            WHERE block_height = ? AND index_block_hash = ? AND event_type = 'smart_contract_log'""");
    static final WriteStatement LOG_RENUMBER_FROM = reading(TX_EVENTS).sql("""
            SELECT b.below, t.tx_id, t.index_block_hash, t.event_index, t.block_height, t.microblock_sequence,
                t.tx_index, t.log_position
            FROM (SELECT COALESCE((SELECT log_position FROM tx_events
                    WHERE contract_id = ? AND log_position IS NOT NULL AND block_height < ?
                    ORDER BY contract_id DESC, log_position DESC FETCH FIRST 1 ROWS ONLY), 0) AS below) b
            LEFT JOIN tx_events t ON t.contract_id = ? AND t.log_position > b.below""");
    static final WriteStatement LOG_SERVED_IN_BLOCK = reading(TX_EVENTS).sql("""
            SELECT contract_id, tx_id, index_block_hash, event_index, block_height, microblock_sequence, tx_index,
                log_position
            FROM tx_events
            WHERE block_height = ? AND index_block_hash = ? AND canonical = TRUE AND microblock_canonical = TRUE
              AND event_type = 'smart_contract_log'""");
    static final WriteStatement SET_LOG_POSITION = writing(TX_EVENTS).sql("""
            UPDATE tx_events SET log_position = ?
            WHERE contract_id = ? AND tx_id = ? AND index_block_hash = ? AND event_index = ? AND block_height = ?""");

    // --- mempool ------------------------------------------------------------------------------

    /** The pending ids, at most as many as bound (PendingMempool loads them once). */
    static final WriteStatement PENDING_MEMPOOL_IDS = reading(MEMPOOL_TXS).sql(
            "SELECT tx_id, receipt_block_height, sender_address, nonce, sponsor_address, sponsor_nonce"
            + " FROM mempool_txs WHERE pruned = FALSE FETCH FIRST ? ROWS ONLY");
    /** Pending since at most the given height: the garbage collection's candidates. */
    static final WriteStatement STALE_PENDING = reading(MEMPOOL_TXS).sql(
            "SELECT tx_id FROM mempool_txs WHERE pruned = FALSE AND receipt_block_height <= ?");
    /** For a chunk of ids ({@link Statements#queryIn}). */
    static final WriteStatement PENDING_AMONG_IN_CHUNK = reading(MEMPOOL_TXS).sql(
            "SELECT tx_id FROM mempool_txs WHERE pruned = FALSE AND tx_id IN (" + CHUNK_OF_KEYS + ")");

    /**
     * Of {@code places} ids (bound twice): those the mempool holds (pending or not), with 0, and
     * those mined on the canonical chain and served, with 1. Both questions a run of new mempool
     * transactions asks, in one round trip. A delivery from a live node carries
     * one to a few transactions: padded to {@value Statements#CHUNK} places (twice), the statement
     * bound 128 parameters and cost 0.33 ms of PostgreSQL's time per call, the costliest statement
     * of the observer path (pg_stat_statements, 10,000-transaction mixed log). Sized to the next
     * power of two, seven statement texts serve every size.
     */
    static final List<WriteStatement> MEMPOOL_KNOWN_OR_MINED_BY_LOG2_PLACES = mempoolKnownOrMined();

    private static List<WriteStatement> mempoolKnownOrMined() {
        List<WriteStatement> statements = new ArrayList<>();
        for (int places = 1; places <= Statements.CHUNK; places *= 2) {
            statements.add(reading(MEMPOOL_TXS, TXS).sql(
                    "SELECT tx_id, 0 FROM mempool_txs WHERE tx_id IN (" + places(places) + ")"
                    + " UNION ALL SELECT tx_id, 1 FROM txs WHERE canonical = TRUE AND microblock_canonical = TRUE"
                    + " AND tx_id IN (" + places(places) + ")"));
        }
        return List.copyOf(statements);
    }

    static final WriteStatement MEMPOOL_PRINCIPALS_AMONG_IN_CHUNK = reading(MEMPOOL_PRINCIPALS).sql(
            "SELECT principal FROM mempool_principals WHERE tx_id IN (" + CHUNK_OF_KEYS + ")");

    static final WriteStatement INSERT_MEMPOOL_TX_STATE = writing(MEMPOOL_TXS).sql("""
            INSERT INTO mempool_txs (tx_id, raw_tx, receipt_time, tx_status, pruned, tx_type, nonce, fee_rate,
                sender_address, sponsor_address, contract_id, receipt_block_height, sponsor_nonce, replaced_by_tx_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");

    /**
     * PostgreSQL: the rows of {@link #INSERT_MEMPOOL_TX_STATE} and {@link #INSERT_MEMPOOL_PRINCIPAL}
     * of a few transactions (a node's delivery) in one statement over arrays, one per column: one
     * round trip where the two COPYs took four. A replay's many rows still go by COPY.
     */
    static final WriteStatement INSERT_MEMPOOL_TXS_WITH_PRINCIPALS_POSTGRESQL =
            writing(MEMPOOL_TXS, MEMPOOL_PRINCIPALS).sql("""
            WITH added AS (
                INSERT INTO mempool_txs (tx_id, raw_tx, receipt_time, tx_status, pruned, tx_type, nonce, fee_rate,
                    sender_address, sponsor_address, contract_id, receipt_block_height, sponsor_nonce, replaced_by_tx_id)
                SELECT * FROM UNNEST(?::varchar[], ?::text[], ?::bigint[], ?::varchar[], ?::boolean[], ?::varchar[],
                    ?::bigint[], ?::varchar[]::numeric[], ?::varchar[], ?::varchar[], ?::varchar[], ?::bigint[],
                    ?::bigint[], ?::varchar[]))
            INSERT INTO mempool_principals (principal, tx_id, receipt_time)
            SELECT * FROM UNNEST(?::varchar[], ?::varchar[], ?::bigint[])""");

    static final WriteStatement MEMPOOL_TX = reading(MEMPOOL_TXS).sql(
            "SELECT raw_tx, receipt_time, pruned FROM mempool_txs WHERE tx_id = ?");

    static final WriteStatement INSERT_MEMPOOL_TX = writing(MEMPOOL_TXS).sql("""
            INSERT INTO mempool_txs (tx_id, raw_tx, receipt_time, tx_status, pruned, tx_type, nonce, fee_rate,
                sender_address, sponsor_address, contract_id, receipt_block_height, sponsor_nonce)
            VALUES (?, ?, ?, 'pending', FALSE, ?, ?, ?, ?, ?, ?, ?, ?)""");

    static final WriteStatement SET_MEMPOOL_STATE = writing(MEMPOOL_TXS).sql(
            "UPDATE mempool_txs SET pruned = ?, tx_status = ? WHERE tx_id = ?");
    /**
     * PostgreSQL: {@link #SET_MEMPOOL_STATE} (pruned, 'pending') and {@link #DELETE_MEMPOOL_PRINCIPALS}
     * for the mined transactions of a block, each one statement over an array of ids instead of one
     * per transaction (a block mines about six).
     */
    static final WriteStatement SET_MINED_POSTGRESQL = writing(MEMPOOL_TXS).sql(
            "UPDATE mempool_txs SET pruned = TRUE, tx_status = 'pending' WHERE tx_id = ANY (?::varchar[])");
    static final WriteStatement DELETE_MEMPOOL_PRINCIPALS_OF_POSTGRESQL = writing(MEMPOOL_PRINCIPALS).sql(
            "DELETE FROM mempool_principals WHERE tx_id = ANY (?::varchar[])");
    /** Pending again (a reorg returned it): its garbage-collection clock starts anew. */
    static final WriteStatement SET_MEMPOOL_PENDING_AGAIN = writing(MEMPOOL_TXS).sql(
            "UPDATE mempool_txs SET pruned = FALSE, tx_status = 'pending', replaced_by_tx_id = NULL,"
            + " receipt_block_height = ? WHERE tx_id = ?");

    static final WriteStatement INSERT_MEMPOOL_PRINCIPAL = writing(MEMPOOL_PRINCIPALS).sql(
            "INSERT INTO mempool_principals (principal, tx_id, receipt_time) VALUES (?, ?, ?)");
    static final WriteStatement MEMPOOL_PRINCIPALS_OF_TX = reading(MEMPOOL_PRINCIPALS).sql(
            "SELECT principal FROM mempool_principals WHERE tx_id = ?");
    static final WriteStatement DELETE_MEMPOOL_PRINCIPALS = writing(MEMPOOL_PRINCIPALS).sql(
            "DELETE FROM mempool_principals WHERE tx_id = ?");

    // --- chain state --------------------------------------------------------------------------

    static final WriteStatement SET_TIP = writing(CHAIN_STATE).sql("""
            UPDATE chain_state SET block_height = ?, block_hash = ?, index_block_hash = ?, burn_block_height = ?,
                microblock_hash = NULL, microblock_sequence = NULL
            WHERE id = 1""");

    static final WriteStatement BUMP_MEMPOOL_VERSION = writing(CHAIN_STATE).sql(
            "UPDATE chain_state SET mempool_version = mempool_version + 1 WHERE id = 1");

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

