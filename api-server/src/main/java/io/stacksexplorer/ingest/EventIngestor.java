package io.stacksexplorer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.write.BlockWriteResult;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewMicroblocks;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.RawPayload;
import io.stacksexplorer.write.StoredPayload;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * Everything the node delivers goes through here, one payload at a time in arrival order (the
 * listener, a replay and a rebuild alike): parse and check first (a bad payload is a
 * {@link MalformedPayloadException} and writes nothing), then one write-path call that stores the
 * raw payload and everything derived from it in one database transaction.
 */
@Singleton
public class EventIngestor {

    private static final Logger LOG = LoggerFactory.getLogger(EventIngestor.class);

    private final ChainWriter writer;
    private final IngestStats stats = new IngestStats();
    private final GenesisBlock genesis = new GenesisBlock();

    public EventIngestor(ChainWriter writer) {
        this.writer = writer;
    }

    public IngestStats stats() {
        return stats.snapshot();
    }

    /**
     * Ingests one delivery.
     *
     * @param receivedAt Unix seconds of receipt (the recorded time during a replay)
     * @throws MalformedPayloadException when the payload cannot be understood (nothing written)
     */
    public synchronized void ingest(String path, String body, long receivedAt) {
        apply(RawPayload.received(path, body, receivedAt));
    }

    /**
     * Re-derives everything from the stored payloads, in arrival order. The change log is kept and
     * not appended to (subscribers are not told the chain again, see ChainWriter#rederiving).
     */
    public synchronized void rebuild(LongConsumer progress) {
        writer.rederiving(() -> {
            writer.clearDerived();
            long last = 0;
            while (true) {
                List<StoredPayload> page = writer.storedPayloads(last);
                if (page.isEmpty()) {
                    return;
                }
                for (StoredPayload payload : page) {
                    try {
                        apply(payload.asRaw());
                    } catch (MalformedPayloadException e) {
                        LOG.warn("stored payload {} ({}) still cannot be derived: {}", payload.id(), payload.path(),
                                e.getMessage());
                    }
                    last = payload.id();
                    progress.accept(last);
                }
            }
        });
        // Every stored payload is derived now, those accepted and not yet derived included.
        ChainWriter.Backlog backlog = writer.backlog();
        if (!backlog.isEmpty()) {
            writer.derivedThrough(backlog.accepted());
        }
    }

    // --- derivation after the answer (STACKS_OBSERVER_DERIVE=after-answer) ---------------------

    /**
     * The observer thread's half of a delivery derived after its answer: parses and checks the
     * payload, then stores it in a commit of its own ({@link ChainWriter#accept}). Not synchronized:
     * it runs while {@link #deriveAccepted} holds this ingestor on the deriving thread.
     *
     * @param sync on H2, force the commit to the disk before returning ({@code H2_FSYNC}); it is
     *             written to the file in any case
     * @return the stored delivery for {@link #deriveAccepted}, or null when the same payload was
     *         stored before (answered, nothing to derive)
     * @throws MalformedPayloadException when the payload cannot be understood (nothing stored)
     */
    public Delivery accept(String path, String body, long receivedAt, boolean sync) {
        Delivery prepared = Delivery.prepare(path, body, receivedAt);
        RawPayload raw = prepared.raw();
        Long id = writer.accept(raw, sync);
        return id == null ? null : new Delivery(
                new RawPayload(id, raw.path(), raw.body(), raw.receivedAt(), raw.payloadHash()), prepared.content());
    }

    /** Whether {@link #acceptAll} may run ahead of {@link #deriveAccepted} (PostgreSQL, see ChainWriter). */
    public boolean storesAheadOfDerivation() {
        return writer.storesAheadOfDerivation();
    }

    /**
     * Stores deliveries {@link Delivery#prepare}d before, in this order, in one commit of their own
     * ({@link ChainWriter#acceptAll}), for {@link #deriveAccepted} to derive: a replay's storing half.
     * Not synchronized: it runs while {@link #deriveAccepted} holds this ingestor on the deriving
     * thread.
     *
     * @return the deliveries stored now, with their ids; those stored before are acknowledged and
     *         left out (counted as payloads, nothing to derive)
     */
    public List<Delivery> acceptAll(List<Delivery> deliveries) {
        List<RawPayload> stored = writer.acceptAll(deliveries.stream().map(Delivery::raw).toList());
        List<Delivery> accepted = new ArrayList<>(stored.size());
        int next = 0;
        for (Delivery delivery : deliveries) {
            if (next < stored.size() && stored.get(next).payloadHash().equals(delivery.raw().payloadHash())) {
                accepted.add(new Delivery(stored.get(next++), delivery.content()));
            } else {
                count(delivery.raw(), 0, 0, 0, 0, 0);
            }
        }
        return accepted;
    }

    /**
     * The deriving thread's half: derives deliveries {@link #accept}ed before, in their order, as
     * one database transaction that also moves the 'derived' cursor past the last of them.
     */
    public synchronized void deriveAccepted(List<Delivery> deliveries) {
        if (deliveries.isEmpty()) {
            return;
        }
        writer.inOneTransaction(() -> {
            // The payloads were committed durably before their answer: a crash that loses this
            // commit loses the 'derived' cursor with it, and they are derived again at the next start.
            writer.commitWithoutWaitingForTheDisk();
            // Several payloads of different kinds: their statements' texts repeat only one by one.
            writer.sendStatementByStatement();
            ingestAll(deliveries, delivery -> {
            });
            writer.derivedThrough(deliveries.get(deliveries.size() - 1).raw().storedId());
            return null;
        });
    }

    /**
     * Derives what a stopped or killed process had answered but not derived (the stored payloads
     * between the two cursors, see V202), {@code batch} payloads per transaction; nothing when every
     * answered payload is derived. Payloads stored before and no longer parseable are logged and skipped.
     *
     * @return the number of payloads derived
     */
    public long deriveBacklog(int batch) {
        ChainWriter.Backlog backlog = writer.backlog();
        long derived = 0;
        long last = backlog.derived();
        while (last < backlog.accepted()) {
            List<StoredPayload> page = writer.storedPayloads(last, backlog.accepted());
            if (page.isEmpty()) {
                break;
            }
            List<Delivery> deliveries = new ArrayList<>(batch);
            for (StoredPayload payload : page) {
                try {
                    deliveries.add(Delivery.prepare(payload.asRaw()));
                } catch (MalformedPayloadException e) {
                    LOG.warn("stored payload {} ({}) cannot be derived: {}", payload.id(), payload.path(), e.getMessage());
                }
                if (deliveries.size() == batch) {
                    deriveAccepted(deliveries);
                    derived += deliveries.size();
                    deliveries = new ArrayList<>(batch);
                }
                last = payload.id();
            }
            deriveAccepted(deliveries);
            derived += deliveries.size();
        }
        if (last > backlog.derived()) {
            // Skipped (unparseable) payloads at the end still count as done.
            writer.derivedThrough(backlog.accepted());
        }
        return derived;
    }

    /**
     * Runs {@code work} (consecutive {@link #ingest} calls, e.g. a replay's next lines) as one
     * database transaction: fewer commits, counters written once; all of it is stored or none.
     */
    public <T> T inOneTransaction(Supplier<T> work) {
        return writer.inOneTransaction(work);
    }

    /**
     * Makes what was committed as durable as a 200 promises: written to the embedded database's
     * file, and with {@code sync} forced to the disk (see {@link ChainWriter#makeDurable}).
     */
    public void makeDurable(boolean sync) {
        writer.makeDurable(sync);
    }

    /** After a bulk load: fresh planner statistics (see {@link ChainWriter#refreshStatistics}). */
    public void refreshStatistics() {
        writer.refreshStatistics();
    }

    public long storedPayloadCount() {
        return writer.countStoredPayloads();
    }

    /**
     * Stores deliveries {@link Delivery#prepare}d before, in this order, as one database transaction
     * (a replay's next lines): which of them are stored already is read in one query.
     */
    public synchronized void ingestAll(List<Delivery> deliveries, Consumer<Delivery> done) {
        writer.inOneTransaction(() -> {
            writer.expectPayloads(deliveries.stream().map(Delivery::raw).toList());
            writer.expectBlocks(deliveries.stream().filter(d -> d.content() instanceof NodePayloads.Block)
                    .map(d -> ((NodePayloads.Block) d.content()).block().indexBlockHash()).toList());
            writer.expectMempoolTransactions(deliveries.stream().filter(d -> d.content() instanceof List<?>)
                    .flatMap(d -> ((List<?>) d.content()).stream()).map(NewMempoolTransaction.class::cast).toList());
            for (int i = 0; i < deliveries.size(); ) {
                int end = i;
                while (end < deliveries.size() && deliveries.get(end).content() instanceof List<?>) {
                    end++;
                }
                if (end > i) {
                    // Consecutive mempool deliveries: one existence check and one batch for all.
                    List<Delivery> run = deliveries.subList(i, end);
                    addMempool(run);
                    run.forEach(done);
                    i = end;
                } else {
                    apply(deliveries.get(i));
                    done.accept(deliveries.get(i));
                    i++;
                }
            }
            return null;
        });
    }

    private void apply(RawPayload raw) {
        apply(Delivery.prepare(raw));
    }

    @SuppressWarnings("unchecked")
    private void addMempool(List<Delivery> run) {
        List<List<NewMempoolTransaction>> txs = new ArrayList<>(run.size());
        List<RawPayload> raws = new ArrayList<>(run.size());
        for (Delivery delivery : run) {
            txs.add((List<NewMempoolTransaction>) delivery.content());
            raws.add(delivery.raw());
        }
        int added = writer.addMempoolTransactions(txs, raws);
        for (int i = 0; i < run.size(); i++) {
            // Stats are totals: the run's additions are counted once, with its last delivery.
            count(raws.get(i), 0, 0, 0, i == run.size() - 1 ? added : 0, 0);
        }
    }

    private void apply(Delivery delivery) {
        RawPayload raw = delivery.raw();
        Object content = delivery.content();
        if (content == null) {
            // /new_burn_block, /attachments/new, /stackerdb_chunks, …: kept only.
            writer.storePayload(raw);
            count(raw, 0, 0, 0, 0, 0);
        } else if (content instanceof NodePayloads.Block parsed) {
            applyBlock(raw, parsed);
        } else if (content instanceof NewMicroblocks micro) {
            int written = writer.writeMicroblocks(micro, raw);
            long events = micro.transactions().stream().mapToLong(t -> t.events().size()).sum();
            count(raw, 0, written, written > 0 ? events : 0, 0, written);
        } else if (content instanceof NodePayloads.Drop drop) {
            if (drop.status() == null) {
                writer.storePayload(raw); // a reason this build does not know: kept only (NodePayloads.drop)
            } else {
                writer.dropMempoolTransactions(drop.txIds(), drop.status(), drop.newTxId(), raw);
            }
            count(raw, 0, 0, 0, 0, 0);
        } else if (content instanceof List<?>) {
            addMempool(List.of(delivery));
        } else {
            throw new IllegalStateException("unexpected content " + content.getClass());
        }
    }

    private void applyBlock(RawPayload raw, NodePayloads.Block parsed) {
        NewBlock block = parsed.block();
        if (genesis.isGenesis(block)) {
            // Kept raw only: its content is written as part of block 1 (see GenesisBlock).
            writer.storePayload(raw);
            genesis.remember(block);
            count(raw, 0, 0, 0, 0, 0);
            return;
        }
        if (block.height() == 1) {
            block = genesis.intoBlockOne(block, writer::storedPayloads);
        }
        BlockWriteResult result = writer.writeBlock(block, parsed.pox(), raw);
        if (result.waitingForParent()) {
            // Acknowledged (the node would otherwise resend it forever) but not served: see
            // ChainWriter.writeBlock. Loud, because it means this database lacks a block the node
            // delivered before; readiness and metrics (StatusQueries) report it until the parent arrives.
            LOG.error("block {} ({}) builds on parent {}, which this database does not hold: kept and not served"
                            + " until the parent arrives. If the database lost data (restored backup, failed disk),"
                            + " replay the node's event log or re-deliver the missing blocks (docs/operations.md: Recovering"
                            + " from a gap)", block.height(), block.indexBlockHash(), block.parentIndexBlockHash());
            count(raw, 0, 0, 0, 0, 0);
            return;
        }
        if (!result.alreadyStored()) {
            List<NewTransaction> txs = block.transactions();
            count(raw, 1, txs.size(), txs.stream().mapToLong(t -> t.events().size()).sum(), 0, 0);
        } else {
            count(raw, 0, 0, 0, 0, 0);
        }
        if (result.reorg()) {
            LOG.info("reorg at block {} ({}): {} block(s) orphaned, {} restored", block.height(),
                    block.indexBlockHash(), result.orphaned().size(), result.restored().size());
        }
        for (StoredPayload deferred : writer.deferredPayloads(block.indexBlockHash())) {
            apply(deferred.asRaw());
        }
    }

    private void count(RawPayload raw, long blocks, long txs, long events, long mempool, long microTxs) {
        synchronized (stats) {
            stats.payloads++;
            stats.blocks += blocks;
            stats.transactions += txs;
            stats.events += events;
            stats.mempool += mempool;
            stats.microblockTransactions += microTxs;
        }
    }
}
