package io.stacksexplorer.query;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.util.Collection;
import java.util.List;

/**
 * The SQL of mined transactions and their events, in plain JDBC: the lookup by ids is a hot route.
 * {@code (:ids)} stands for as many placeholders as ids ({@link PlainJdbc#withIds}).
 */
@Singleton
class TransactionStore {

    /** Canonical mined rows of the given ids; unanchored microblock rows only when asked. */
    static final String CANONICAL_TXS = "SELECT " + TxRow.COLUMNS + " FROM txs WHERE tx_id IN (:ids)"
            + " AND canonical = TRUE AND microblock_canonical = TRUE AND (is_unanchored = FALSE OR ? = TRUE)";

    /**
     * Events {@code from .. to - 1} of each (tx_id, index_block_hash) whose tx_id is given, by primary key
     * range (event_index is the event's position within its transaction). The events' key leads with
     * the block's height and hash (migration V205), so the blocks that mined each transaction come
     * from txs first.
     */
    static final String EVENT_PAGES = "SELECT " + PlainJdbc.prefixed("e.", BlockEventRow.COLUMNS)
            + " FROM txs t JOIN tx_events e ON e.block_height = t.block_height"
            + " AND e.index_block_hash = t.index_block_hash AND e.tx_id = t.tx_id"
            + " WHERE t.tx_id IN (:ids) AND e.event_index >= ? AND e.event_index < ?"
            + " ORDER BY e.tx_id, e.index_block_hash, e.event_index";

    private final DataSource dataSource;

    TransactionStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    List<TxRow> canonicalTxs(Collection<String> txIds, boolean unanchored) {
        return PlainJdbc.queryByIds(dataSource, CANONICAL_TXS, txIds, (ps, next) -> ps.setBoolean(next, unanchored),
                rs -> TxRow.read(rs, 1));
    }

    List<BlockEventRow> eventPages(Collection<String> txIds, long from, long to) {
        return PlainJdbc.queryByIds(dataSource, EVENT_PAGES, txIds, (ps, next) -> {
            ps.setLong(next, from);
            ps.setLong(next + 1, to);
        }, rs -> BlockEventRow.read(rs, 1));
    }
}
