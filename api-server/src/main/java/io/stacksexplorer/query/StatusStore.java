package io.stacksexplorer.query;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.util.List;

/** The SQL of the chain tip and of delivered payloads the database cannot place yet, in plain JDBC. */
@Singleton
class StatusStore {

    static final String CHAIN_STATE = "SELECT " + ChainStateRow.COLUMNS + " FROM chain_state WHERE id = 1";

    /**
     * Delivered blocks and microblock streams kept because the block they build on is not stored
     * (the write path marks them in node_events), and the parent the earliest such block waits for.
     */
    static final String PAYLOADS_WAITING = """
            SELECT COALESCE(SUM(CASE WHEN event_path = '/new_block' THEN 1 ELSE 0 END), 0),
                   COALESCE(SUM(CASE WHEN event_path = '/new_microblocks' THEN 1 ELSE 0 END), 0),
                   (SELECT w.deferred_parent FROM node_events w
                    WHERE w.deferred_parent IS NOT NULL AND w.event_path = '/new_block'
                    ORDER BY w.id FETCH FIRST 1 ROWS ONLY)
            FROM node_events WHERE deferred_parent IS NOT NULL""";

    /**
     * Transactions of stored blocks that the build which stored them could not read (held, not served,
     * until a rebuild), and the lowest one. The table is empty unless the node sent something newer
     * than the build: the whole table is read.
     */
    static final String HELD = """
            SELECT (SELECT COUNT(*) FROM held_txs), h.tx_id, h.block_height, h.reason
            FROM chain_state c LEFT JOIN (SELECT tx_id, block_height, reason FROM held_txs
                ORDER BY block_height, tx_index FETCH FIRST 1 ROWS ONLY) h ON TRUE
            WHERE c.id = 1""";

    private final DataSource dataSource;

    StatusStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** The single chain_state row. */
    ChainStateRow chainState() {
        List<ChainStateRow> rows = PlainJdbc.query(dataSource, "query", CHAIN_STATE, ps -> { },
                rs -> ChainStateRow.read(rs, 1));
        if (rows.isEmpty()) {
            throw new DataAccessException("the chain_state row is missing");
        }
        return rows.get(0);
    }

    HeldTransactions heldTransactions() {
        return PlainJdbc.query(dataSource, "query", HELD, ps -> { },
                rs -> new HeldTransactions(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getString(4))).get(0);
    }

    BlocksWaiting blocksWaitingForParent() {
        return PlainJdbc.query(dataSource, "query", PAYLOADS_WAITING, ps -> { },
                rs -> new BlocksWaiting(rs.getLong(1), rs.getString(3), rs.getLong(2))).get(0);
    }
}
