package io.stacksexplorer.write;

import io.micronaut.context.event.ApplicationEventPublisher;
import io.micronaut.transaction.TransactionOperations;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import javax.sql.DataSource;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * The one way data enters the database. Each public method is one database transaction: a block
 * with all its transactions, events, derived rows, counters, reorg flips and the new chain tip is
 * written entirely or not at all. Every method is idempotent: writing what is already there
 * changes nothing.
 *
 * <p>This class only says which steps make up each write, in one database transaction
 * ({@link WriteTransactions}): the stored payload ({@link RawPayloads}), then {@link BlockWrites}
 * (anchored blocks and fork choice, with {@link Reorgs}), {@link Microblocks}, {@link MempoolWrites}
 * and {@link MempoolReplacement}, over the rows of {@link ChainRows}, and the change log's entries
 * ({@link ChangeLog}). Payloads answered before their derivation: {@link AcceptedPayloads}.
 */
@Singleton
public class ChainWriter {

    private final WriteTransactions transactions;
    private final AcceptedPayloads accepted;
    private final BlockWrites blocks;
    private final Microblocks microblocks;
    private final MempoolWrites mempool;
    /**
     * While a rebuild re-derives the stored payloads: nothing is logged for subscriptions, since the
     * change log already holds every change of that chain (see {@link #rederiving}).
     */
    private volatile boolean rederiving;

    public ChainWriter(TransactionOperations<Connection> transactions, DataSource dataSource, TxDecoder decoder,
                       ApplicationEventPublisher<ChainCommitted> committed) {
        this.transactions = new WriteTransactions(transactions, dataSource, committed);
        this.accepted = new AcceptedPayloads(this.transactions);
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
        return transactions.inTransaction(sql -> {
            if (!RawPayloads.storeRaw(sql, raw)) {
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
                RawPayloads.defer(sql, raw, block.parentIndexBlockHash());
                return result;
            }
            // A kept block whose parent has arrived (or a rebuild): no longer waiting.
            RawPayloads.undefer(sql, raw);
            if (!result.alreadyStored() && (pox.v1() != null || pox.v2() != null || pox.v3() != null)) {
                sql.setPoxUnlockHeights(pox);
            }
            if (!rederiving) {
                ChangeLog.blockWritten(sql, block, result);
                ChangeLog.changedHere(sql);
            }
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
        return transactions.inTransaction(sql -> {
            if (!RawPayloads.storeRaw(sql, raw)) {
                return 0;
            }
            ChainRows.BlockRef parent = ChainRows.findBlock(sql, micro.parentIndexBlockHash());
            if (parent == null) {
                if (raw != null) {
                    RawPayloads.defer(sql, raw, micro.parentIndexBlockHash());
                }
                return 0;
            }
            RawPayloads.undefer(sql, raw);
            // A rebuild logs nothing: the microblocks' changes are taken into a log that is never appended.
            int written = microblocks.write(sql, micro, parent, rederiving ? new ChangeLog() : sql.changeLog());
            if (!rederiving) {
                ChangeLog.changedHere(sql);
            }
            return written;
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
        return transactions.inTransaction(sql -> {
            List<NewMempoolTransaction> all = new ArrayList<>();
            for (int i = 0; i < deliveries.size(); i++) {
                if (RawPayloads.storeRaw(sql, raws.get(i))) {
                    all.addAll(deliveries.get(i));
                }
            }
            if (all.isEmpty()) {
                return 0;
            }
            int added = mempool.add(sql, all);
            if (!rederiving) {
                ChangeLog.mempoolAdded(sql, all);
                ChangeLog.changedHere(sql);
            }
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
        return transactions.inTransaction(sql -> {
            if (!RawPayloads.storeRaw(sql, raw)) {
                return 0;
            }
            int dropped = mempool.drop(sql, txIds, droppedStatus, replacedBy);
            if (!rederiving) {
                ChangeLog.dropped(sql, txIds);
            }
            return dropped;
        });
    }

    /** Keeps a payload nothing is derived from (burn blocks, attachments, …); false when seen before. */
    public boolean storePayload(RawPayload raw) {
        return transactions.inTransaction(sql -> RawPayloads.storeRaw(sql, raw));
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
        transactions.inTransaction(sql -> {
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
        transactions.inTransaction(sql -> {
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
        transactions.inTransaction(sql -> {
            sql.announcements().expectMempoolTransactions(ids);
            return null;
        });
    }

    /**
     * Payloads kept until their parent block {@code indexBlockHash} arrived (microblocks that came
     * before their anchor, blocks that came before their parent), in arrival order.
     */
    public List<StoredPayload> deferredPayloads(String indexBlockHash) {
        if (transactions.knownNoDeferredPayloads()) {
            // Known from the last commit: no transaction of its own just to find nothing.
            return List.of();
        }
        return transactions.inTransaction(sql -> RawPayloads.waitingFor(sql, indexBlockHash));
    }

    /** Stored payloads after {@code afterId}, in arrival order, a page at a time. */
    public List<StoredPayload> storedPayloads(long afterId) {
        return transactions.inTransaction(sql -> RawPayloads.between(sql, afterId, Long.MAX_VALUE));
    }

    public long countStoredPayloads() {
        return transactions.inTransaction(RawPayloads::count);
    }

    /**
     * Runs {@code work} (a rebuild: {@link #clearDerived}, then every stored payload again) without
     * appending its changes to the change log: they were logged when the payloads first arrived, and
     * their rows name blocks and transactions by hash and id, which a rebuild derives again the same.
     * Subscribers see nothing twice; a resume renders the rebuilt rows. Then one mark, after a failure
     * too ({@link ChangeLog#rebuilt}): every row may have been written again, so kept answers go.
     */
    public void rederiving(Runnable work) {
        rederiving = true;
        try {
            work.run();
        } finally {
            rederiving = false;
            transactions.inTransaction(ChangeLog::rebuilt);
        }
    }

    /** Empties every derived table (before a rebuild from the stored payloads). */
    public void clearDerived() {
        transactions.clearDerived();
    }

    /** Adds transactions the node reported entering its mempool; known ones are ignored. */
    public int addMempoolTransactions(List<NewMempoolTransaction> txs) {
        return transactions.inTransaction(sql -> {
            int added = mempool.add(sql, txs);
            if (!rederiving) {
                ChangeLog.mempoolAdded(sql, txs);
                ChangeLog.changedHere(sql);
            }
            return added;
        });
    }

    /**
     * Deletes up to {@code batch} of the oldest change-log rows recorded before {@code recordedBefore}
     * (Unix milliseconds), in one short transaction of its own ({@link ChangeLogRetention}).
     *
     * @return the number of rows deleted
     */
    public int pruneChangeLog(long recordedBefore, int batch) {
        return transactions.inTransaction(sql -> ChangeLog.prune(sql, recordedBefore, batch));
    }

    /** Whether any block has been written (the demo chain is only generated into an empty database). */
    public boolean hasBlocks() {
        return transactions.inTransaction(sql -> sql.exists(WriteSql.ANY_BLOCK));
    }

    /**
     * The payloads accepted up to {@code payloadId} are derived once the open transaction
     * ({@link #inOneTransaction}) commits, or, called outside one, in a transaction of its own.
     */
    public void derivedThrough(long payloadId) {
        transactions.inTransaction(sql -> {
            sql.addBatch(WriteSql.ADVANCE_DERIVE_CURSOR, payloadId, "derived", payloadId);
            return null;
        });
    }

    /**
     * In the open transaction ({@link #inOneTransaction}): its statements go one by one, each
     * prepared on the server, not as one text with the commit ({@link Statements#sendStatementByStatement}).
     */
    public void sendStatementByStatement() {
        transactions.inTransaction(sql -> {
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
        transactions.inTransaction(sql -> {
            if (sql.isPostgres()) {
                sql.update(WriteSql.COMMIT_WITHOUT_WAITING_FOR_THE_DISK);
            }
            return null;
        });
    }

    /** Stored payloads with {@code afterId < id <= throughId}, in arrival order, a page at a time. */
    public List<StoredPayload> storedPayloads(long afterId, long throughId) {
        return transactions.inTransaction(sql -> RawPayloads.between(sql, afterId, throughId));
    }

    /**
     * Runs {@code work}, which may call this writer many times (e.g. a replay's consecutive
     * payloads), as one database transaction: every write inside joins it, and counters are written
     * once at its end. All of it is stored or none of it; since every write is idempotent, a rerun
     * after a crash converges to the same database.
     */
    public <T> T inOneTransaction(Supplier<T> work) {
        return transactions.inOneTransaction(work);
    }

    /**
     * Refreshes the query planner's statistics of the written tables, after a bulk load (replay,
     * rebuild): PostgreSQL plans the first queries after a load of millions of rows from empty-table
     * estimates until autovacuum's next ANALYZE (never, where autovacuum is off).
     */
    public void refreshStatistics() {
        transactions.refreshStatistics();
    }

    /** Makes every committed change as durable as a 200 from the event observer promises ({@link AcceptedPayloads#makeDurable}). */
    public void makeDurable(boolean sync) {
        accepted.makeDurable(sync);
    }

    /**
     * PostgreSQL: stores payloads to be derived later ({@link #derivedThrough}), in arrival order
     * ({@link AcceptedPayloads#acceptAll}).
     *
     * @return the payloads stored now, with their ids; one stored before is left out
     */
    public List<RawPayload> acceptAll(List<RawPayload> raws) {
        return accepted.acceptAll(raws);
    }

    /**
     * Stores a payload to be derived later ({@link #derivedThrough}); once this returns it is
     * committed and durable and may be answered 200 ({@link AcceptedPayloads#accept}).
     *
     * @return the stored payload's id, or null when the same payload was stored before
     */
    public Long accept(RawPayload raw, boolean sync) {
        return accepted.accept(raw, sync);
    }

    /** Whether payloads may be committed ahead of their derivation: on PostgreSQL ({@link AcceptedPayloads}). */
    public boolean storesAheadOfDerivation() {
        return accepted.storesAheadOfDerivation();
    }

    /** Payloads answered before they were derived, and not derived yet: ids {@code (derived, accepted]}. */
    public record Backlog(long derived, long accepted) {

        public boolean isEmpty() {
            return derived >= accepted;
        }
    }

    public Backlog backlog() {
        return accepted.backlog();
    }

    /** Lets a scheduled ANALYZE in flight end before the connection pool closes. */
    @PreDestroy
    void awaitStatistics() throws InterruptedException {
        transactions.awaitStatistics();
    }
}
