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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SQL of contract deployments and contract log events: positions and ABIs through the generic
 * mapper; the log page (with its count, one statement) and the deployment status, hot, in plain JDBC.
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
abstract class ContractStore implements GenericRepository<ContractDeployRow, String> {

    /**
     * The keys of every canonical successful deployment of the given contracts, the highest block
     * first: the latest one's ABI names a contract call's arguments, and comes from the cache by
     * deployment ({@link ContractQueries#abisOf}), so the ABIs' text is not read per request (it
     * was 12 % of a 20-id lookup's CPU, issue 48). {@code (:ids)} as in {@link #LATEST_DEPLOYS}.
     */
    static final String SUCCESSFUL_DEPLOYS = "SELECT contract_id, tx_id, index_block_hash FROM smart_contracts"
            + " WHERE contract_id IN (:ids) AND canonical = TRUE AND tx_status = 'success'"
            + " ORDER BY contract_id, block_height DESC";

    /**
     * The ABIs of every deployment of the given contracts that has one, whatever its status (they are
     * cached by deployment, {@link ContractQueries#abisOf}); {@code (:ids)} as in {@link #LATEST_DEPLOYS}.
     */
    static final String ABIS_OF = "SELECT contract_id, tx_id, index_block_hash, abi FROM smart_contracts"
            + " WHERE contract_id IN (:ids) AND abi IS NOT NULL";

    /**
     * The current position of a served log event, when it is still served. The events' key leads
     * with the block's height and hash (migration V205), so the transaction's blocks come from txs first.
     */
    static final String FIND_LOG_POSITION = "SELECT e.log_position FROM txs t JOIN tx_events e"
            + " ON e.block_height = t.block_height AND e.index_block_hash = t.index_block_hash"
            + " AND e.tx_id = t.tx_id AND e.event_index = :eventIndex"
            + " WHERE t.tx_id = :txId AND e.contract_id = :contractId AND e.canonical = TRUE"
            + " AND e.microblock_canonical = TRUE AND e.event_type = 'smart_contract_log'";

    /**
     * The canonical deployment attempts of the given contracts (contract status), each contract's latest
     * first; {@code (:ids)} stands for as many placeholders as ids ({@link PlainJdbc#withIds}). One
     * statement for the whole request, however many contracts it names.
     */
    static final String LATEST_DEPLOYS = "SELECT " + ContractDeployRow.COLUMNS + " FROM smart_contracts"
            + " WHERE contract_id IN (:ids) AND canonical = TRUE AND microblock_canonical = TRUE"
            + " ORDER BY contract_id, block_height DESC, microblock_sequence DESC, tx_index DESC";

    /**
     * A page of a contract's log events in one round trip: the contract's event count
     * (contract_log_stats) and the position of its newest anchored event, then the events at positions
     * (top - limit, top], top = min(newest - offset, cap), newest first (tx_events_log_position_idx),
     * where newest is the count when unanchored events are asked for and the anchored top otherwise.
     * Served events, and only they, carry a position, dense and in chain order; unanchored events,
     * when there are any, hold the newest positions (they sit on the tip), so walking the position
     * index down from the top skips only those few. The anchored top's ORDER BY names the contract (a
     * constant) so that H2 walks the index backwards too. Same one-row CTE as
     * {@link AddressStore#HISTORY_PAGE}. Parameters: contract, contract, contract, unanchored, offset,
     * cap, unanchored, offset, cap, limit.
     */
    static final String LOG_PAGE = "WITH tip AS (SELECT"
            + " COALESCE((SELECT event_count FROM contract_log_stats WHERE contract_id = ?), 0) AS total,"
            + " COALESCE((SELECT log_position FROM tx_events WHERE contract_id = ? AND log_position IS NOT NULL"
            + " AND is_unanchored = FALSE ORDER BY contract_id DESC, log_position DESC LIMIT 1), 0) AS anchored,"
            + " (SELECT positions_version FROM chain_state WHERE id = 1) AS positions)"
            + " SELECT tip.total, tip.anchored, tip.positions, " + PlainJdbc.prefixed("e.", EventRow.COLUMNS)
            + " FROM tip LEFT JOIN tx_events e ON e.contract_id = ?"
            + " AND e.log_position <= LEAST(CASE WHEN ? THEN tip.total ELSE tip.anchored END - ?, ?)"
            + " AND e.log_position > LEAST(CASE WHEN ? THEN tip.total ELSE tip.anchored END - ?, ?) - ?"
            + " ORDER BY e.log_position DESC";

    /** A contract's log page: where its pages start and the page's events, newest first, from one snapshot. */
    record LogPage(ContractQueries.LogTops tops, List<EventRow> rows) {
    }

    private final DataSource dataSource;

    ContractStore(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    @Query(FIND_LOG_POSITION)
    abstract Optional<Long> findLogPosition(String contractId, String txId, int eventIndex);

    /** The latest canonical deployment attempt of each of the given contracts that has one. */
    Map<String, ContractDeployRow> latestDeploys(Collection<String> contractIds) {
        Map<String, ContractDeployRow> latest = new HashMap<>();
        PlainJdbc.queryByIds(dataSource, LATEST_DEPLOYS, contractIds, (ps, next) -> { },
                rs -> latest.putIfAbsent(rs.getString(1), ContractDeployRow.read(rs, 1)));
        return latest;
    }

    /** Each given contract's latest canonical successful deployment, for the contracts that have one. */
    List<Deployment> latestSuccessfulDeploys(Collection<String> contractIds) {
        Map<String, Deployment> latest = new LinkedHashMap<>();
        PlainJdbc.queryByIds(dataSource, SUCCESSFUL_DEPLOYS, contractIds, (ps, next) -> { },
                rs -> latest.putIfAbsent(rs.getString(1), new Deployment(rs.getString(1), rs.getString(2), rs.getString(3))));
        return List.copyOf(latest.values());
    }

    /** The ABI of every deployment of the given contracts that has one. */
    Map<Deployment, String> abisOf(Collection<String> contractIds) {
        Map<Deployment, String> abis = new HashMap<>();
        PlainJdbc.queryByIds(dataSource, ABIS_OF, contractIds, (ps, next) -> { },
                rs -> abis.put(new Deployment(rs.getString(1), rs.getString(2), rs.getString(3)), rs.getString(4)));
        return abis;
    }

    /**
     * At most {@code limit} log events of a contract from position min(newest - {@code offset},
     * {@code cap}) down, with the count and the newest position.
     */
    LogPage logPage(String contractId, boolean unanchored, long offset, long cap, int limit) {
        long[] placed = {0, 0, 0};
        List<EventRow> rows = new ArrayList<>(limit);
        PlainJdbc.query(dataSource, "query", LOG_PAGE, ps -> {
            ps.setString(1, contractId);
            ps.setString(2, contractId);
            ps.setString(3, contractId);
            ps.setBoolean(4, unanchored);
            ps.setLong(5, offset);
            ps.setLong(6, cap);
            ps.setBoolean(7, unanchored);
            ps.setLong(8, offset);
            ps.setLong(9, cap);
            ps.setLong(10, limit);
        }, rs -> {
            placed[0] = rs.getLong(1);
            placed[1] = rs.getLong(2);
            placed[2] = rs.getLong(3);
            if (rs.getString(4) != null) { // NULLs: no event on this page
                rows.add(EventRow.read(rs, 4));
            }
            return null;
        });
        return new LogPage(new ContractQueries.LogTops(placed[0], placed[1], placed[2]), rows);
    }
}
