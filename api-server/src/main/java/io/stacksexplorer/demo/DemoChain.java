package io.stacksexplorer.demo;

import io.stacksexplorer.ingest.Delivery;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.generate.GeneratorSummary;
import io.stacksexplorer.generate.Preset;
import io.stacksexplorer.ingest.EventIngestor;
import io.stacksexplorer.ingest.GenesisBlock;
import io.stacksexplorer.ingest.TsvReplay;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.PrincipalActivity;
import io.stacksexplorer.write.TxFacts;
import io.stacksexplorer.write.TxOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@link Preset#DEMO demo preset}'s chain as tests and examples see it: the generator's log,
 * read back the way a replay reads it ({@link TsvReplay#delivery}), reduced to its canonical
 * blocks (block 0's transactions inside block 1, as the write path stores them; forked siblings
 * left out) and the transactions still pending at the end. A pure function of its seed.
 *
 * <p>The server ingests the same log through {@link EventIngestor} ({@link DemoDataLoader}); tests
 * that need a prefix of the chain write these blocks through the write path. What the chain
 * contains, and where to find examples, is in {@link #summary()}.
 */
public final class DemoChain {

    /** The demo preset's seed: the server uses it unless configured otherwise. */
    public static final long DEFAULT_SEED = Preset.DEMO.seed();

    private final long seed;
    private final List<NewBlock> blocks;
    private final List<NewMempoolTransaction> mempool;
    private final GeneratorSummary generated;
    private final Summary summary;

    private DemoChain(long seed, List<NewBlock> blocks, List<NewMempoolTransaction> mempool,
                      GeneratorSummary generated) {
        this.seed = seed;
        this.blocks = List.copyOf(blocks);
        this.mempool = List.copyOf(mempool);
        this.generated = generated;
        this.summary = summarize();
    }

    /** Generates the demo preset's chain for {@code seed}; the same seed always gives the same chain. */
    public static DemoChain generate(long seed) {
        Map<String, NewBlock> byIndexHash = new HashMap<>();
        Map<String, NewMempoolTransaction> announced = new LinkedHashMap<>();
        GeneratorSummary generated;
        try {
            generated = Preset.DEMO.withSeed(seed).generate(line -> {
                Delivery delivery = TsvReplay.delivery(line);
                NewBlock block = delivery.block();
                if (block != null) {
                    byIndexHash.put(block.indexBlockHash(), block);
                }
                delivery.mempoolTransactions().forEach(tx -> announced.put(tx.txId(), tx));
                delivery.droppedTxIds().forEach(announced::remove);
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<NewBlock> canonical = new ArrayList<>();
        for (NewBlock block = byIndexHash.get(generated.tipIndexBlockHash()); block != null;
             block = byIndexHash.get(block.parentIndexBlockHash())) {
            canonical.add(block);
        }
        Collections.reverse(canonical);
        if (canonical.size() > 1 && canonical.get(0).height() == 0) {
            canonical.set(1, GenesisBlock.merge(canonical.get(0), canonical.get(1)));
            canonical.remove(0);
        }
        Set<String> mined = new HashSet<>();
        canonical.forEach(block -> block.transactions().forEach(tx -> mined.add(tx.txId())));
        List<NewMempoolTransaction> pending = announced.values().stream()
                .filter(tx -> !mined.contains(tx.txId())).toList();
        return new DemoChain(seed, canonical, pending, generated);
    }

    public long seed() {
        return seed;
    }

    /** Canonical blocks from height 1, each child of the previous one; write them in this order. */
    public List<NewBlock> blocks() {
        return blocks;
    }

    /** Transactions still pending at the end of the log; write them after the blocks. */
    public List<NewMempoolTransaction> mempool() {
        return mempool;
    }

    /** The generator's own account of the log (forks, microblocks, eras, the hot address). */
    public GeneratorSummary generated() {
        return generated;
    }

    public Summary summary() {
        return summary;
    }

    /**
     * What the chain holds, for logs, README examples and tests.
     *
     * @param txCountByType       mined transactions per API {@code tx_type}
     * @param txCountByStatus     mined transactions per API {@code tx_status}
     * @param eventCountByType    committed events per API {@code event_type}
     * @param hotAddresses        the generator's hot address, then the two busiest other standard addresses
     * @param hotAddressTxCounts  for each hot address, the mined transactions it takes part in (as the
     *                            write path counts them: sender, sponsor, recipient, asset-event parties)
     * @param exampleTxIdByType   the first successful transaction of each type
     * @param contractIdWithLogs  the generator's hot contract, whose calls print many {@code smart_contract_log} events
     * @param failedDeploymentContractId a contract whose deployments all aborted
     * (this and the other example ids are null when a seed's chain has no such transaction; the
     * default seed's has each of them, see DemoChainTest)
     */
    public record Summary(
            int blockCount,
            long tipHeight,
            String tipBlockHash,
            int txCount,
            Map<String, Integer> txCountByType,
            Map<String, Integer> txCountByStatus,
            Map<String, Integer> eventCountByType,
            int microblockTxCount,
            int sponsoredTxCount,
            int mempoolTxCount,
            List<String> hotAddresses,
            Map<String, Integer> hotAddressTxCounts,
            Map<String, String> exampleTxIdByType,
            String contractIdWithLogs,
            String ftAssetId,
            String nftAssetId,
            String failedDeploymentContractId,
            String failedContractCallTxId,
            String abortByPostConditionTxId,
            String sponsoredTxId,
            String microblockTxId,
            String stxLockTxId,
            String pendingTxId) {

        public Summary {
            txCountByType = ordered(txCountByType);
            txCountByStatus = ordered(txCountByStatus);
            eventCountByType = ordered(eventCountByType);
            hotAddresses = List.copyOf(hotAddresses);
            hotAddressTxCounts = ordered(hotAddressTxCounts);
            exampleTxIdByType = ordered(exampleTxIdByType);
        }

        private static <V> Map<String, V> ordered(Map<String, V> map) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(map));
        }

        /** One log line's worth. */
        public String describe() {
            return String.format("%d blocks, %d transactions %s, events %s, %d pending", blockCount, txCount,
                    txCountByType, eventCountByType, mempoolTxCount);
        }
    }

    private Summary summarize() {
        CodecTxDecoder decoder = new CodecTxDecoder();
        Map<String, Integer> byType = new TreeMap<>();
        Map<String, Integer> byStatus = new TreeMap<>();
        Map<String, Integer> byEvent = new TreeMap<>();
        Map<String, Integer> activity = new HashMap<>();
        Map<String, String> examples = new TreeMap<>();
        Map<String, Boolean> deployed = new LinkedHashMap<>();
        int txCount = 0;
        int microblockTxs = 0;
        int sponsored = 0;
        String failedCall = null;
        String postConditionAbort = null;
        String sponsoredTx = null;
        String microblockTx = null;
        String stxLockTx = null;
        String ftAsset = null;
        String nftAsset = null;
        for (NewBlock block : blocks) {
            for (NewTransaction tx : block.transactions()) {
                txCount++;
                StacksTransaction decoded = StacksTransaction.decodeHex(tx.rawTx());
                String type = decoded.payload().txType();
                byType.merge(type, 1, Integer::sum);
                byStatus.merge(tx.status().apiName(), 1, Integer::sum);
                for (NewEvent event : tx.events()) {
                    byEvent.merge(event.eventType(), 1, Integer::sum);
                    if (ftAsset == null && event instanceof NewEvent.FungibleAsset ft) {
                        ftAsset = ft.assetId();
                    }
                    if (nftAsset == null && event instanceof NewEvent.NonFungibleAsset nft) {
                        nftAsset = nft.assetId();
                    }
                }
                if (tx.status() == TxOutcome.SUCCESS) {
                    examples.putIfAbsent(type, tx.txId());
                }
                if (tx.inMicroblock()) {
                    microblockTxs++;
                    microblockTx = microblockTx == null ? tx.txId() : microblockTx;
                }
                if (decoded.isSponsored()) {
                    sponsored++;
                    sponsoredTx = sponsoredTx == null ? tx.txId() : sponsoredTx;
                }
                if (failedCall == null && tx.status() == TxOutcome.ABORT_BY_RESPONSE
                        && decoded.payload() instanceof TransactionPayload.ContractCall) {
                    failedCall = tx.txId();
                }
                if (postConditionAbort == null && tx.status() == TxOutcome.ABORT_BY_POST_CONDITION
                        && decoded.payload() instanceof TransactionPayload.ContractCall) {
                    postConditionAbort = tx.txId();
                }
                if (stxLockTx == null && tx.events().stream().anyMatch(e -> e instanceof NewEvent.StxLock)) {
                    stxLockTx = tx.txId();
                }
                TxFacts facts = decoder.decode(tx.rawTx());
                if ("smart_contract".equals(type)) {
                    deployed.merge(facts.contractId(), tx.status() == TxOutcome.SUCCESS, Boolean::logicalOr);
                }
                for (PrincipalActivity row : PrincipalActivity.derive(facts, tx.status(), tx.events())) {
                    activity.merge(row.principal(), 1, Integer::sum);
                }
            }
        }
        List<String> hot = new ArrayList<>();
        hot.add(generated.hotAddress());
        activity.entrySet().stream()
                .filter(e -> !e.getKey().contains(".") && !e.getKey().equals(generated.hotAddress()))
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(2).forEach(e -> hot.add(e.getKey()));
        Map<String, Integer> hotCounts = new LinkedHashMap<>();
        hot.forEach(address -> hotCounts.put(address, activity.getOrDefault(address, 0)));
        String failedDeployment = deployed.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey)
                .findFirst().orElse(null);
        NewBlock tip = blocks.get(blocks.size() - 1);
        String pending = mempool.isEmpty() ? null : mempool.get(0).txId();
        return new Summary(blocks.size(), tip.height(), tip.blockHash(), txCount, byType, byStatus, byEvent,
                microblockTxs, sponsored, mempool.size(), hot, hotCounts, examples, generated.hotContract(),
                ftAsset, nftAsset, failedDeployment, failedCall, postConditionAbort, sponsoredTx, microblockTx,
                stxLockTx, pending);
    }
}
