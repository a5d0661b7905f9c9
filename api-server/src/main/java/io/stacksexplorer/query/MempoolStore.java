package io.stacksexplorer.query;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQL of the mempool: lookups through the generic mapper; a principal's pending page with its
 * count in plain JDBC, one statement.
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
abstract class MempoolStore implements GenericRepository<MempoolTxRow, String> {

    static final String FIND_BY_TX_IDS = "SELECT " + MempoolTxRow.COLUMNS + " FROM mempool_txs m"
            + " WHERE m.tx_id IN (:txIds)";

    /**
     * A page of the pending transactions concerning a principal, newest first, with their count
     * (mempool_principal_stats), in one round trip: the count comes from a one-row CTE that the page is
     * LEFT JOINed to, so that a page past the end still answers the count (one row of NULLs). Receipt
     * times are whole seconds and a node delivers many transactions in one payload: ties are ordered
     * by tx_id so that pages are stable and both databases agree (index mempool_principals_recent_idx
     * has the same order). Parameters: principal, principal, limit, offset.
     */
    static final String PENDING_PAGE = "WITH tip AS (SELECT COALESCE((SELECT pending_count"
            + " FROM mempool_principal_stats WHERE principal = ?), 0) AS total)"
            + " SELECT tip.total, x.tx_id, x.raw_tx, x.receipt_time, x.tx_status, x.pruned, x.replaced_by_tx_id FROM tip LEFT JOIN"
            + " (SELECT " + MempoolTxRow.COLUMNS + ", p.receipt_time AS listed_at FROM mempool_principals p"
            + " JOIN mempool_txs m ON m.tx_id = p.tx_id WHERE p.principal = ?"
            + " ORDER BY p.receipt_time DESC, p.tx_id LIMIT ? OFFSET ?) x ON TRUE"
            + " ORDER BY x.listed_at DESC, x.tx_id";

    /**
     * The pending deployments of the given contracts, each contract's newest first (the caller keeps
     * that one); {@code (:ids)} stands for as many placeholders as ids ({@link PlainJdbc#withIds}). One
     * statement for all the contracts of a status request that have no mined attempt.
     */
    static final String PENDING_DEPLOYS = "SELECT m.contract_id, m.tx_id FROM mempool_txs m"
            + " WHERE m.contract_id IN (:ids) AND m.tx_type = 'smart_contract' AND m.pruned = FALSE"
            + " ORDER BY m.contract_id, m.receipt_time DESC";

    /**
     * The pending transactions concerning a principal at or below a place in the v3 order (receipt
     * time, then tx id, both descending, as the peer's cursor pages), with the chain height each
     * arrived at: one range of mempool_principals_keyset_idx (V208), which has that order, so the
     * LIMIT ends the scan. Parameters: principal, time, time, tx id, limit.
     */
    static final String PENDING_AT_OR_BELOW = "SELECT " + MempoolTxRow.COLUMNS + ", m.receipt_block_height,"
            + " p.receipt_time FROM mempool_principals p JOIN mempool_txs m ON m.tx_id = p.tx_id WHERE p.principal = ?"
            + " AND (p.receipt_time < ? OR (p.receipt_time = ? AND p.tx_id <= ?))"
            + " ORDER BY p.receipt_time DESC, p.tx_id DESC LIMIT ?";

    /**
     * Up to {@code limit} places above a given one, nearest first: the last is where the page before
     * starts. The same index read backwards. Parameters: principal, time, time, tx id, limit.
     */
    static final String PENDING_ABOVE = "SELECT p.receipt_time, p.tx_id FROM mempool_principals p"
            + " WHERE p.principal = ? AND (p.receipt_time > ? OR (p.receipt_time = ? AND p.tx_id > ?))"
            + " ORDER BY p.receipt_time, p.tx_id LIMIT ?";

    static final String PENDING_COUNT = "SELECT pending_count FROM mempool_principal_stats WHERE principal = ?";

    /** A page of a principal's pending transactions and their count. */
    record PendingPage(long total, List<MempoolTxRow> rows) {
    }

    /** A pending transaction with the chain height it arrived at and its place in the v3 order. */
    record PlacedPending(MempoolTxRow tx, long receiptBlockHeight, MempoolKey key) {
    }

    private final DataSource dataSource;

    MempoolStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    @Query(FIND_BY_TX_IDS)
    abstract List<MempoolTxRow> findByTxIds(Collection<String> txIds);

    /** The tx id of the newest pending deployment of each of the given contracts that has one. */
    Map<String, String> pendingDeploys(Collection<String> contractIds) {
        Map<String, String> pending = new HashMap<>();
        PlainJdbc.queryByIds(dataSource, PENDING_DEPLOYS, contractIds, (ps, next) -> { },
                rs -> pending.putIfAbsent(rs.getString(1), rs.getString(2)));
        return pending;
    }

    PendingPage pendingPage(String principal, int limit, int offset) {
        long[] total = {0};
        List<MempoolTxRow> rows = new ArrayList<>(limit);
        PlainJdbc.query(dataSource, "query", PENDING_PAGE, ps -> {
            ps.setString(1, principal);
            ps.setString(2, principal);
            ps.setInt(3, limit);
            ps.setInt(4, offset);
        }, rs -> {
            total[0] = rs.getLong(1);
            if (rs.getString(2) != null) { // NULLs: no transaction on this page
                rows.add(MempoolTxRow.read(rs, 2));
            }
            return null;
        });
        return new PendingPage(total[0], rows);
    }

    List<PlacedPending> pendingAtOrBelow(String principal, MempoolKey at, int limit) {
        return PlainJdbc.query(dataSource, "query", PENDING_AT_OR_BELOW, ps -> {
            ps.setString(1, principal);
            ps.setLong(2, at.receiptTime());
            ps.setLong(3, at.receiptTime());
            ps.setString(4, at.txId());
            ps.setInt(5, limit);
        }, rs -> new PlacedPending(MempoolTxRow.read(rs, 1), rs.getLong(MempoolTxRow.WIDTH + 1),
                new MempoolKey(rs.getLong(MempoolTxRow.WIDTH + 2), rs.getString(1))));
    }

    List<MempoolKey> pendingAbove(String principal, MempoolKey above, int limit) {
        return PlainJdbc.query(dataSource, "query", PENDING_ABOVE, ps -> {
            ps.setString(1, principal);
            ps.setLong(2, above.receiptTime());
            ps.setLong(3, above.receiptTime());
            ps.setString(4, above.txId());
            ps.setInt(5, limit);
        }, rs -> new MempoolKey(rs.getLong(1), rs.getString(2)));
    }

    long pendingCount(String principal) {
        return PlainJdbc.first(PlainJdbc.query(dataSource, "query", PENDING_COUNT, ps -> ps.setString(1, principal),
                rs -> rs.getLong(1))).orElse(0L);
    }
}
