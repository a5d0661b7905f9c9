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

import java.util.List;
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

    /** Paths the node posts that the seven endpoints derive something from. */
    static final List<String> DERIVED_PATHS =
            List.of("/new_block", "/new_burn_block", "/new_mempool_tx", "/drop_mempool_tx", "/new_microblocks");

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

    /** Re-derives everything from the stored payloads, in arrival order. */
    public synchronized void rebuild(LongConsumer progress) {
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
    }

    /**
     * Runs {@code work} (consecutive {@link #ingest} calls, e.g. a replay's next lines) as one
     * database transaction: fewer commits, counters written once; all of it is stored or none.
     */
    public <T> T inOneTransaction(Supplier<T> work) {
        return writer.inOneTransaction(work);
    }

    public long storedPayloadCount() {
        return writer.countStoredPayloads();
    }

    private void apply(RawPayload raw) {
        String path = raw.path();
        if (!DERIVED_PATHS.contains(path)) {
            // /attachments/new, /stackerdb_chunks, /proposal_response, /new_burn_block ops, …: kept only.
            writer.storePayload(raw);
            count(raw, 0, 0, 0, 0, 0);
            return;
        }
        JsonNode body = NodePayloads.parse(raw.body());
        switch (path) {
            case "/new_block" -> {
                NodePayloads.Block parsed = NodePayloads.block(body);
                if (parsed.skippedBurnchainOps() > 0) {
                    LOG.info("block {}: {} burnchain operations without a Stacks transaction not indexed",
                            parsed.block().height(), parsed.skippedBurnchainOps());
                }
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
                for (StoredPayload deferred : writer.deferredMicroblocks(block.indexBlockHash())) {
                    apply(deferred.asRaw());
                }
            }
            case "/new_microblocks" -> {
                NewMicroblocks micro = NodePayloads.microblocks(body, raw.receivedAt());
                int written = writer.writeMicroblocks(micro, raw);
                long events = micro.transactions().stream().mapToLong(t -> t.events().size()).sum();
                count(raw, 0, written, written > 0 ? events : 0, 0, written);
            }
            case "/new_mempool_tx" -> {
                List<NewMempoolTransaction> txs = NodePayloads.mempool(body, raw.receivedAt());
                count(raw, 0, 0, 0, writer.addMempoolTransactions(txs, raw), 0);
            }
            case "/drop_mempool_tx" -> {
                NodePayloads.Drop drop = NodePayloads.drop(body);
                writer.dropMempoolTransactions(drop.txIds(), drop.status(), raw);
                count(raw, 0, 0, 0, 0, 0);
            }
            default -> {
                // /new_burn_block: the seven endpoints take burn data from the blocks themselves.
                if (!body.isObject()) {
                    throw new MalformedPayloadException(path + ": expected a JSON object");
                }
                writer.storePayload(raw);
                count(raw, 0, 0, 0, 0, 0);
            }
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
