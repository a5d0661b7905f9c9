package io.stacksexplorer.write;

import com.google.common.collect.Lists;
import io.micronaut.context.event.ApplicationEventPublisher;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.transaction.TransactionOperations;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The one way data enters the database. Each public method is one database transaction: a block
 * with all its transactions, events, derived rows, counters, reorg flips and the new chain tip is
 * written entirely or not at all. Every method is idempotent: writing what is already there
 * changes nothing.
 *
 * <p>The work is split by concern: {@link BlockWrites} (anchored blocks and fork choice),
 * {@link Reorgs} (canonical flips), {@link Microblocks} (unanchored rows and their settlement),
 * {@link MempoolWrites}, {@link Counters}, with the rows of one transaction in {@link ChainRows}.
 * This class owns the database transaction and the raw payloads.
 */
@Singleton
public class ChainWriter {

    private static final Logger LOG = LoggerFactory.getLogger(ChainWriter.class);

    private final TransactionOperations<Connection> transactions;
    /** The pool itself, for {@link #accept}'s one statement in autocommit mode, outside any transaction. */
    private final DataSource pool;
    /** Whether {@link #pool} is PostgreSQL, once a connection has told (see {@link #onPostgres}). */
    private volatile Boolean postgres;
    private final BlockWrites blocks;
    private final Microblocks microblocks;
    private final MempoolWrites mempool;
    private final CommittedCounters committedCounters = new CommittedCounters();
    private final PendingMempool pendingMempool = new PendingMempool();
    private final WrittenKeys writtenKeys = new WrittenKeys();
    private final StatisticsSchedule statistics = new StatisticsSchedule();
    /** The scheduled ANALYZE running on a thread of its own, if one is (see {@link #newTransaction}). */
    private final AtomicReference<Thread> analyzing = new AtomicReference<>();
    /**
     * While a rebuild re-derives the stored payloads: nothing is logged for subscriptions, since the
     * change log already holds every change of that chain (see {@link #rederiving}).
     */
    private volatile boolean rederiving;
    /** The statements of the transaction {@link #inOneTransaction} holds open on this thread, if any. */
    private final ThreadLocal<Statements> open = new ThreadLocal<>();
    /** Told after every transaction this writer ends ({@link ChainCommitted}). */
    private final ApplicationEventPublisher<ChainCommitted> committed;

    public ChainWriter(TransactionOperations<Connection> transactions, DataSource dataSource, TxDecoder decoder,
                       ApplicationEventPublisher<ChainCommitted> committed) {
        this.transactions = transactions;
        this.committed = committed;
        this.pool = DelegatingDataSource.unwrapDataSource(dataSource);
        ChainRows rows = new ChainRows(decoder);
        this.mempool = new MempoolWrites(decoder);
        this.blocks = new BlockWrites(rows, mempool);
        this.microblocks = new Microblocks(rows);
    }

    /** Writes one anchored block; a block already stored is acknowledged and ignored. */
    public BlockWriteResult writeBlock(NewBlock block) {
        return writeBlock(block, PoxUnlockHeights.NONE, null);
    }

    /**
     * Writes one anchored block as the node delivered it, with its raw payload, in one database
     * transaction. A payload or block already stored is acknowledged and ignored.
     */
    public BlockWriteResult writeBlock(NewBlock block, PoxUnlockHeights pox, RawPayload raw) {
        return inTransaction(sql -> {
            if (!storeRaw(sql, raw)) {
                return BlockWriteResult.unchanged();
            }
            BlockWriteResult result = blocks.write(sql, block, raw != null);
            if (result.waitingForParent()) {
                // A node delivers a block only after its parent, so an unknown parent means this
                // database lacks something the node sent (a restored backup, a lost write) or the
                // payload is not from this chain. Making it the tip would serve a chain with a hole
                // and hide the loss; refusing it would make the node resend it forever. It is kept,
                // marked with the parent it waits for, and written when that parent arrives
                // (EventIngestor applies it after the parent, as for early microblocks).
                defer(sql, raw, block.parentIndexBlockHash());
                return result;
            }
            // A kept block whose parent has arrived (or a rebuild): no longer waiting.
            undefer(sql, raw);
            if (!result.alreadyStored() && (pox.v1() != null || pox.v2() != null || pox.v3() != null)) {
                sql.setPoxUnlockHeights(pox);
            }
            logChanges(sql, block, result);
            return result;
        });
    }

    /**
     * Writes microblock transactions as unanchored rows on top of their parent block. Microblocks an
     * anchor block already confirmed are ignored; microblocks whose parent block is not stored yet
     * are kept (raw) and derived when it arrives (see {@link #deferredPayloads}).
     *
     * @return the number of unanchored transactions written
     */
    public int writeMicroblocks(NewMicroblocks micro, RawPayload raw) {
        return inTransaction(sql -> {
            if (!storeRaw(sql, raw)) {
                return 0;
            }
            ChainRows.BlockRef parent = ChainRows.findBlock(sql, micro.parentIndexBlockHash());
            if (parent == null) {
                if (raw != null) {
                    defer(sql, raw, micro.parentIndexBlockHash());
                }
                return 0;
            }
            undefer(sql, raw);
            // A rebuild logs nothing: the microblocks' changes are taken into a log that is never appended.
            return microblocks.write(sql, micro, parent, rederiving ? new ChangeLog() : sql.changeLog());
        });
    }

    /**
     * Adds the mempool transactions of one or more consecutive {@code /new_mempool_tx} deliveries
     * (nothing else arrived between them) with their raw payloads, in one database transaction: the
     * same rows as one call per delivery, with one existence check for all of them. Deliveries stored
     * before are ignored.
     *
     * @return the number of transactions added
     */
    public int addMempoolTransactions(List<List<NewMempoolTransaction>> deliveries, List<RawPayload> raws) {
        return inTransaction(sql -> {
            List<NewMempoolTransaction> all = new ArrayList<>();
            for (int i = 0; i < deliveries.size(); i++) {
                if (storeRaw(sql, raws.get(i))) {
                    all.addAll(deliveries.get(i));
                }
            }
            if (all.isEmpty()) {
                return 0;
            }
            int added = mempool.add(sql, all);
            logMempool(sql, all);
            return added;
        });
    }

    /**
     * Drops mempool transactions the node reported, with the raw payload, in one database transaction.
     *
     * @param replacedBy the node's {@code new_txid}, stored as each one's {@code replaced_by_tx_id}; or null
     */
    public int dropMempoolTransactions(Collection<String> txIds, String droppedStatus, String replacedBy,
                                       RawPayload raw) {
        return inTransaction(sql -> {
            if (!storeRaw(sql, raw)) {
                return 0;
            }
            int dropped = mempool.drop(sql, txIds, droppedStatus, replacedBy);
            logDropped(sql, txIds);
            return dropped;
        });
    }

    /** Keeps a payload nothing is derived from (burn blocks, attachments, …); false when seen before. */
    public boolean storePayload(RawPayload raw) {
        return inTransaction(sql -> storeRaw(sql, raw));
    }

    /**
     * Announces the payloads the open transaction ({@link #inOneTransaction}) is about to store, in
     * arrival order: which of them are stored already is read in one query, and the new ones are
     * inserted in batches instead of one round trip each.
     */
    public void expectPayloads(List<RawPayload> raws) {
        List<String> hashes = new ArrayList<>(raws.size());
        for (RawPayload raw : raws) {
            if (raw.storedId() == null) {
                hashes.add(raw.payloadHash());
            }
        }
        inTransaction(sql -> {
            sql.announcements().expectPayloads(hashes);
            return null;
        });
    }

    /**
     * Announces the blocks the open transaction ({@link #inOneTransaction}) is about to write: which
     * of them are stored already is read in one query, so that each block's own existence check
     * needs no round trip.
     */
    public void expectBlocks(List<String> indexBlockHashes) {
        inTransaction(sql -> {
            sql.announcements().expectBlocks(indexBlockHashes);
            return null;
        });
    }

    /**
     * Announces the mempool transactions the open transaction ({@link #inOneTransaction}) is about
     * to add, before it writes anything: which of them the mempool holds already, or the chain has
     * mined, is read in one query per {@value Statements#CHUNK} ids, so that each run of mempool
     * deliveries between two blocks needs no round trip of its own (a replay's batch of a mixed log
     * holds about two hundred such runs).
     */
    public void expectMempoolTransactions(List<NewMempoolTransaction> txs) {
        List<String> ids = new ArrayList<>(txs.size());
        for (NewMempoolTransaction tx : txs) {
            ids.add(tx.id());
        }
        inTransaction(sql -> {
            sql.announcements().expectMempoolTransactions(ids);
            return null;
        });
    }

    /**
     * Payloads kept until their parent block {@code indexBlockHash} arrived (microblocks that came
     * before their anchor, blocks that came before their parent), in arrival order.
     */
    public List<StoredPayload> deferredPayloads(String indexBlockHash) {
        if (open.get() == null && Boolean.TRUE.equals(committedCounters.noDeferredPayloads())) {
            // Known from the last commit: no transaction of its own just to find nothing.
            return List.of();
        }
        return inTransaction(sql -> {
            if (sql.noDeferredPayloads()) {
                return List.of();
            }
            sql.flushPayloads();
            return sql.query(WriteSql.DEFERRED_OF, ChainWriter::storedPayload, indexBlockHash);
        });
    }

    /** Stored payloads after {@code afterId}, in arrival order, a page at a time. */
    public List<StoredPayload> storedPayloads(long afterId) {
        return inTransaction(sql -> {
            sql.flushPayloads();
            return sql.query(WriteSql.NODE_EVENTS_AFTER, ChainWriter::storedPayload, afterId);
        });
    }

    public long countStoredPayloads() {
        return inTransaction(sql -> {
            sql.flushPayloads();
            return sql.query(WriteSql.COUNT_NODE_EVENTS, rs -> rs.getLong(1)).get(0);
        });
    }

    /**
     * Runs {@code work} (a rebuild: {@link #clearDerived}, then every stored payload again) without
     * appending to the change log: the changes it re-derives were logged when the payloads first
     * arrived, and their rows name blocks and transactions by hash and id, which a rebuild derives
     * again the same. Subscribers see nothing twice; a resume renders the rebuilt rows.
     */
    public void rederiving(Runnable work) {
        rederiving = true;
        try {
            work.run();
        } finally {
            rederiving = false;
        }
    }

    /** Empties every derived table (before a rebuild from the stored payloads). */
    public void clearDerived() {
        committedCounters.clear();
        statistics.reset();
        inTransaction(sql -> {
            for (WriteStatement statement : WriteSql.CLEAR_DERIVED) {
                sql.update(statement);
            }
            return null;
        });
        // Loaded again, empty, by the next transaction.
        pendingMempool.invalidate();
    }

    /** Adds transactions the node reported entering its mempool; known ones are ignored. */
    public int addMempoolTransactions(List<NewMempoolTransaction> txs) {
        return inTransaction(sql -> {
            int added = mempool.add(sql, txs);
            logMempool(sql, txs);
            return added;
        });
    }

    /**
     * Refreshes the query planner's statistics of the written tables, after a bulk load (replay,
     * rebuild): PostgreSQL plans the first queries after a load of millions of rows from empty-table
     * estimates until autovacuum's next ANALYZE (never, where autovacuum is off). H2 keeps its own
     * statistics up to date as rows change.
     */
    public void refreshStatistics() {
        statistics.refreshed();
        analyze(false);
    }

    /**
     * @param quick a sample of 3,000 rows per table instead of 30,000: enough for what the write
     *              path's plans depend on (table sizes, distinct keys), a tenth of the cost (the
     *              five scheduled runs of a 200,000-transaction replay took 5.0 s at full size)
     */
    private void analyze(boolean quick) {
        inTransaction(sql -> {
            if (sql.isPostgres()) {
                if (quick) {
                    sql.update(WriteSql.QUICK_STATISTICS);
                }
                sql.update(WriteSql.ANALYZE_POSTGRESQL);
            }
            return null;
        });
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
    public void makeDurable(boolean sync) {
        if (onPostgres()) {
            return;
        }
        // Plain JDBC: it may run on the observer thread beside the deriving thread (see accept).
        plainTransaction(false, c -> {
            try (var checkpoint = bound(c, sync ? WriteSql.H2_CHECKPOINT_SYNC : WriteSql.H2_CHECKPOINT)) {
                checkpoint.execute();
            }
            return null;
        });
    }

    /**
     * Deletes up to {@code batch} of the oldest change-log rows recorded before {@code recordedBefore}
     * (Unix milliseconds), in one short transaction of its own ({@link ChangeLogRetention}).
     *
     * @return the number of rows deleted
     */
    public int pruneChangeLog(long recordedBefore, int batch) {
        return inTransaction(sql -> ChangeLog.prune(sql, recordedBefore, batch));
    }

    /** Whether any block has been written (the demo chain is only generated into an empty database). */
    public boolean hasBlocks() {
        return inTransaction(sql -> sql.exists(WriteSql.ANY_BLOCK));
    }

    // --- derivation after the answer (STACKS_OBSERVER_DERIVE=after-answer, V202) ----------------

    /**
     * PostgreSQL ({@link #storesAheadOfDerivation}): stores payloads to be derived later on another
     * thread ({@link #derivedThrough}), in arrival order, and moves the 'accepted' cursor to the last
     * of them, in one database transaction of plain JDBC (not {@link #inTransaction}, for the reason given at {@link #accept}): a replay
     * stores its next lines this way while its deriving thread writes the rows of the previous ones.
     * Until they are derived, the payloads are the backlog that {@link #backlog} reports and the next
     * start derives first.
     *
     * @return the payloads stored now, with their ids, in arrival order; one stored before (or twice
     *         in the list) is left out: acknowledged, nothing to derive
     */
    public List<RawPayload> acceptAll(List<RawPayload> raws) {
        if (!storesAheadOfDerivation()) {
            throw new IllegalStateException("payloads are stored ahead of their derivation on PostgreSQL only");
        }
        if (raws.isEmpty()) {
            return List.of();
        }
        return plainTransaction(false, c -> {
            // The new payloads by hash, in arrival order; one twice in the list is stored once.
            Map<String, RawPayload> fresh = new LinkedHashMap<>();
            for (RawPayload raw : raws) {
                if (raw.storedId() == null) {
                    fresh.putIfAbsent(raw.payloadHash(), raw);
                }
            }
            List<String> maybe = writtenKeys.mayBeStored(WrittenKeys.Kind.PAYLOAD_HASHES, fresh.keySet(), anyRow -> {
                try (var probe = bound(c, anyRow); ResultSet rs = probe.executeQuery()) {
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
                writtenKeys.noteWrite(WriteSql.INSERT_NODE_EVENT, params);
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
            try (var cursor = bound(c, WriteSql.ADVANCE_DERIVE_CURSOR, last, "accepted", last)) {
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
            try (var query = bound(c, inChunk, Arrays.copyOf(chunk.toArray(), Statements.CHUNK));
                 ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    each.read(rs);
                }
            }
        }
    }

    /**
     * Stores a payload to be derived later on another thread ({@link #derivedThrough}) and moves the
     * 'accepted' cursor to it, in one database transaction; once this returns the payload is
     * committed and durable ({@link #makeDurable}; on the disk too with {@code sync}) and may be
     * answered 200.
     *
     * <p>Plain JDBC, not {@link #inTransaction}: it runs on the observer thread while the deriving
     * thread's transaction is open, and a {@link Statements} copies this writer's cached committed
     * state (tip, waiting-payload and PoX look-ups) when it opens and writes it back when it
     * commits, which would put back what the deriving thread had just changed.
     *
     * @return the stored payload's id, or null when the same payload was stored before (nothing to derive)
     */
    public Long accept(RawPayload raw, boolean sync) {
        Long id = onPostgres() ? acceptInOneStatement(raw) : plainTransaction(false, c -> {
            String hash = raw.payloadHash();
            try (var insert = bound(c, WriteSql.INSERT_NODE_EVENT_IF_NEW, raw.receivedAt(), raw.path(), hash,
                    raw.body(), hash)) {
                if (insert.executeUpdate() == 0) {
                    return null;
                }
            }
            long stored;
            try (var select = bound(c, WriteSql.NODE_EVENT_ID, hash); var rs = select.executeQuery()) {
                rs.next();
                stored = rs.getLong(1);
            }
            try (var update = bound(c, WriteSql.ADVANCE_DERIVE_CURSOR, stored, "accepted", stored)) {
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
        try (Connection c = pool.getConnection()) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            try (var accept = bound(c, WriteSql.ACCEPT_PAYLOAD_POSTGRESQL, raw.receivedAt(), raw.path(),
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
    public boolean storesAheadOfDerivation() {
        return onPostgres();
    }

    /** Whether the pool's database is PostgreSQL; asked once (the first connection that answers). */
    private boolean onPostgres() {
        Boolean known = postgres;
        if (known == null) {
            try (Connection c = pool.getConnection()) {
                known = isPostgres(c);
            } catch (SQLException e) {
                throw new StorageException("write failed: " + e.getMessage(), e);
            }
            postgres = known;
        }
        return known;
    }

    /**
     * The payloads accepted up to {@code payloadId} are derived once the open transaction
     * ({@link #inOneTransaction}) commits, or, called outside one, in a transaction of its own.
     */
    public void derivedThrough(long payloadId) {
        inTransaction(sql -> {
            sql.addBatch(WriteSql.ADVANCE_DERIVE_CURSOR, payloadId, "derived", payloadId);
            return null;
        });
    }

    /**
     * In the open transaction ({@link #inOneTransaction}): its statements go one by one, each
     * prepared on the server, not as one text with the commit ({@link Statements#sendStatementByStatement}).
     */
    public void sendStatementByStatement() {
        inTransaction(sql -> {
            sql.sendStatementByStatement();
            return null;
        });
    }

    /**
     * In the open transaction ({@link #inOneTransaction}), on PostgreSQL: its commit returns without
     * waiting for the disk (asynchronous commit: it is either kept whole or lost whole in a crash,
     * never half). Only for rows that can be derived again from payloads whose own commit did wait:
     * a derivation after the answer, whose 'derived' cursor goes in the same transaction, so a lost
     * commit means the payloads are derived again at the next start, to the same rows.
     */
    public void commitWithoutWaitingForTheDisk() {
        inTransaction(sql -> {
            if (sql.isPostgres()) {
                sql.update(WriteSql.COMMIT_WITHOUT_WAITING_FOR_THE_DISK);
            }
            return null;
        });
    }

    /** Payloads answered before they were derived, and not derived yet: ids {@code (derived, accepted]}. */
    public record Backlog(long derived, long accepted) {

        public boolean isEmpty() {
            return derived >= accepted;
        }
    }

    public Backlog backlog() {
        return plainTransaction(true, c -> {
            long derived = 0;
            long accepted = 0;
            try (var select = bound(c, WriteSql.DERIVE_CURSORS); var rs = select.executeQuery()) {
                while (rs.next()) {
                    if ("derived".equals(rs.getString(1))) {
                        derived = rs.getLong(2);
                    } else if ("accepted".equals(rs.getString(1))) {
                        accepted = rs.getLong(2);
                    }
                }
            }
            return new Backlog(derived, accepted);
        });
    }

    /** Stored payloads with {@code afterId < id <= throughId}, in arrival order, a page at a time. */
    public List<StoredPayload> storedPayloads(long afterId, long throughId) {
        return inTransaction(sql -> {
            sql.flushPayloads();
            return sql.query(WriteSql.NODE_EVENTS_BETWEEN, ChainWriter::storedPayload, afterId, throughId);
        });
    }

    private static boolean isPostgres(Connection c) throws SQLException {
        return "PostgreSQL".equals(c.getMetaData().getDatabaseProductName());
    }

    /**
     * {@code statement} prepared on {@code c}, its parameters bound as the write path binds them;
     * the keys it writes are noted as {@link Statements} notes them.
     */
    private PreparedStatement bound(Connection c, WriteStatement statement, Object... params)
            throws SQLException {
        writtenKeys.noteWrite(statement, params);
        PreparedStatement ps = c.prepareStatement(statement.sql());
        try {
            Statements.bind(ps, params);
            return ps;
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
    }

    @FunctionalInterface
    private interface PlainWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /** A transaction of plain JDBC statements, outside this writer's cached state (see {@link #accept}). */
    private <T> T plainTransaction(boolean readOnly, PlainWork<T> work) {
        io.micronaut.transaction.TransactionCallback<Connection, T> callback = status -> {
            try {
                return work.run(status.getConnection());
            } catch (SQLException e) {
                throw new StorageException("write failed: " + e.getMessage(), e);
            }
        };
        return readOnly ? transactions.executeRead(callback) : transactions.executeWrite(callback);
    }

    // --- the change log (subscriptions), in the same database transaction as the change ---------

    /**
     * A block that became the tip: the transactions the fork switch took off the chain (each has a
     * new state), the restored blocks oldest first, then the block and its transactions. A block
     * stored beside the chain changes nothing that is served and is not logged.
     */
    private void logChanges(Statements sql, NewBlock block, BlockWriteResult result) throws SQLException {
        if (rederiving || result.alreadyStored() || result.waitingForParent()
                || !block.indexBlockHash().equals(sql.tip().indexBlockHash())) {
            return;
        }
        ChangeLog log = sql.changeLog();
        for (String orphaned : result.orphaned()) {
            log.txsLeaving(sql, orphaned);
        }
        for (int i = result.restored().size() - 1; i >= 0; i--) {
            log.blockWithTxs(sql, result.restored().get(i));
        }
        // This block's transactions as delivered: no query, so a replay's rows stay queued.
        log.block(block.indexBlockHash());
        for (NewTransaction tx : block.transactions()) {
            log.tx(tx.txId(), block.indexBlockHash());
        }
    }

    /** Delivered mempool transactions; ones that were not added (known, mined) are skipped when served. */
    private void logMempool(Statements sql, List<NewMempoolTransaction> txs) throws SQLException {
        if (rederiving) {
            return;
        }
        sql.changeLog().mempool(txs.stream().map(tx -> tx.txId() != null ? tx.txId()
                : io.stacksexplorer.codec.Sha512_256.txId(io.stacksexplorer.codec.Hex.decode(tx.rawTx()))).toList());
    }

    /** Transactions replaced by fee as a consequence of what the transaction wrote (MempoolReplacement). */
    private void logReplaced(Statements sql) {
        if (!rederiving) {
            for (String txId : sql.mempool().replacedByFee()) {
                sql.changeLog().tx(txId, null);
            }
        }
    }

    private void logDropped(Statements sql, Collection<String> txIds) throws SQLException {
        if (rederiving) {
            return;
        }
        ChangeLog log = sql.changeLog();
        for (String txId : txIds) {
            log.tx(txId, null);
        }
    }

    // --- raw payloads ---------------------------------------------------------------------------

    /** Stores a new raw payload; false when the same payload was stored before (nothing to derive). */
    private static boolean storeRaw(Statements sql, RawPayload raw) throws SQLException {
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

    /** Keeps a payload until the block {@code parentIndexBlockHash} arrives ({@link #deferredPayloads}). */
    private static void defer(Statements sql, RawPayload raw, String parentIndexBlockHash) throws SQLException {
        sql.update(WriteSql.SET_DEFERRED, parentIndexBlockHash, rawId(sql, raw));
        sql.deferredPayloadsChanged();
    }

    /**
     * A stored payload being derived (its parent arrived, a rebuild, or stored before its derivation)
     * no longer waits. Asked only while some payload waits: a replay storing ahead and an observer
     * deriving after its answers derive every block from a stored payload, and a statement per block
     * that changes nothing was a round trip each.
     */
    private static void undefer(Statements sql, RawPayload raw) throws SQLException {
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

    private static StoredPayload storedPayload(java.sql.ResultSet rs) throws SQLException {
        return new StoredPayload(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4));
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Statements sql) throws SQLException;
    }

    /**
     * Runs {@code work}, which may call this writer many times (e.g. a replay's consecutive
     * payloads), as one database transaction: every write inside joins it, and counters are written
     * once at its end. All of it is stored or none of it; since every write is idempotent, a rerun
     * after a crash converges to the same database.
     */
    public <T> T inOneTransaction(Supplier<T> work) {
        if (open.get() != null) {
            return work.get();
        }
        return newTransaction(false, sql -> {
            open.set(sql);
            try {
                return work.get();
            } finally {
                open.remove();
            }
        });
    }

    private <T> T inTransaction(Work<T> work) {
        Statements joined = open.get();
        if (joined != null) {
            try {
                return work.run(joined);
            } catch (SQLException e) {
                throw new StorageException("write failed: " + e.getMessage(), e);
            }
        }
        try {
            return newTransaction(true, work);
        } catch (RuntimeException e) {
            if (!Statements.isPayloadStoredBefore(e)) {
                throw e;
            }
            // The payload presumed new was stored before (a node delivering again): nothing was
            // written; the checked way acknowledges it without deriving it again.
            return newTransaction(false, work);
        }
    }

    /**
     * One database transaction; what it cached (counters) is kept only once it committed.
     *
     * @param presumeNewPayloads see {@link Statements#presumeNewPayloads}: for one delivery, not for
     *                           {@link #inOneTransaction}'s many (a payload stored before would
     *                           undo all of them)
     */
    private <T> T newTransaction(boolean presumeNewPayloads, Work<T> work) {
        Statements[] used = new Statements[1];
        T result;
        try {
            result = transactions.executeWrite(status -> {
                try (Statements sql = new Statements(status.getConnection(), committedCounters, pendingMempool,
                        writtenKeys)) {
                    used[0] = sql;
                    sql.presumeNewPayloads(presumeNewPayloads);
                    sql.mempool().loadIfWanted();
                    T value = work.run(sql);
                    logReplaced(sql);
                    sql.finish();
                    return value;
                } catch (SQLException e) {
                    throw new StorageException("write failed: " + e.getMessage(), e);
                }
            });
        } catch (RuntimeException e) {
            // Whether a commit that failed took effect is unknown: the cached committed state is
            // read from the database again.
            committedCounters.clear();
            pendingMempool.invalidate();
            committed.publishEvent(ChainCommitted.INSTANCE);
            throw e;
        }
        used[0].afterCommit();
        committed.publishEvent(ChainCommitted.INSTANCE);
        if (open.get() == null && statistics.committed(used[0].rowsWritten()) && onPostgres()) {
            // The tables grew enough that plans made on the old statistics may scan them (StatisticsSchedule).
            analyzeInBackground();
        }
        return result;
    }

    /**
     * Runs the scheduled ANALYZE on a thread and connection of its own, one at a time: it used to
     * run on the writing thread after the commit that made it due, and the next transaction waited
     * for it (six runs, 2.8 s of a 1,000,000-transaction replay whose deriving thread is its critical
     * path; an event observer's next answer waited the same way). The plans it replaces are used a
     * few transactions longer. While one runs, the rows keep counting and the next commit asks again.
     */
    private void analyzeInBackground() {
        if (analyzing.get() != null) {
            return;
        }
        Thread thread = new Thread(() -> {
            try {
                analyze(true);
            } catch (RuntimeException e) {
                // The next refresh comes with the next doubling; a stopped pool at shutdown ends here.
                LOG.warn("planner statistics not refreshed: {}", e.getMessage());
            } finally {
                analyzing.set(null);
            }
        }, "planner-statistics");
        thread.setDaemon(true);
        if (analyzing.compareAndSet(null, thread)) {
            statistics.refreshed();
            thread.start();
        }
    }

    /** Lets a scheduled ANALYZE in flight end before the connection pool closes. */
    @PreDestroy
    void awaitStatistics() throws InterruptedException {
        Thread thread = analyzing.get();
        if (thread != null) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
