package io.stacksexplorer.demo;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.write.CodecTxDecoder;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.PrincipalActivity;
import io.stacksexplorer.write.TxFacts;
import io.stacksexplorer.write.TxOutcome;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A deterministic demo chain, a pure function of its seed: about 300 mainnet-style blocks from
 * 2024-01-01T00:00:00Z, ten minutes apart (burn heights from 830000), with ~10k real, encoded
 * transactions of every type and outcome, their events, and a few dozen pending mempool transactions.
 * Signatures are random bytes: nothing on the read path verifies them.
 *
 * <p>What it contains, and where to find examples, is in {@link #summary()}.
 */
public final class DemoChain {

    /** The seed the server uses unless configured otherwise. */
    public static final long DEFAULT_SEED = 20240101L;

    private final long seed;
    private final List<NewBlock> blocks;
    private final List<NewMempoolTransaction> mempool;
    private final Summary summary;

    private DemoChain(long seed, DemoChainBuilder built) {
        this.seed = seed;
        this.blocks = List.copyOf(built.blocks());
        this.mempool = List.copyOf(built.mempool());
        this.summary = summarize(built);
    }

    /** Generates the chain for {@code seed}; the same seed always gives the same blocks and bytes. */
    public static DemoChain generate(long seed) {
        return new DemoChain(seed, new DemoChainBuilder(seed).build());
    }

    public long seed() {
        return seed;
    }

    /** Blocks in height order, each child of the previous one; write them in this order. */
    public List<NewBlock> blocks() {
        return blocks;
    }

    /** Pending transactions, received after the last block; write them after the blocks. */
    public List<NewMempoolTransaction> mempool() {
        return mempool;
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
     * @param hotAddressTxCounts  for each hot address, the mined transactions it takes part in (as the
     *                            write path counts them: sender, sponsor, recipient, asset-event parties)
     * @param exampleTxIdByType   the first successful transaction of each type
     * @param contractIdWithLogs  a contract whose calls print many {@code smart_contract_log} events
     * @param failedDeploymentContractId a contract whose only deployment aborted
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

    private Summary summarize(DemoChainBuilder built) {
        CodecTxDecoder decoder = new CodecTxDecoder();
        Map<String, Integer> byType = new TreeMap<>();
        Map<String, Integer> byStatus = new TreeMap<>();
        Map<String, Integer> byEvent = new TreeMap<>();
        Map<String, Integer> hot = new LinkedHashMap<>();
        built.hotAddresses().forEach(address -> hot.put(address, 0));
        Map<String, String> examples = new TreeMap<>();
        int txCount = 0;
        int microblockTxs = 0;
        int sponsored = 0;
        String failedCall = null;
        String postConditionAbort = null;
        String sponsoredTx = null;
        String microblockTx = null;
        String stxLockTx = null;
        for (NewBlock block : blocks) {
            for (NewTransaction tx : block.transactions()) {
                txCount++;
                StacksTransaction decoded = StacksTransaction.decodeHex(tx.rawTx());
                String type = decoded.payload().txType();
                byType.merge(type, 1, Integer::sum);
                byStatus.merge(tx.status().apiName(), 1, Integer::sum);
                tx.events().forEach(event -> byEvent.merge(event.eventType(), 1, Integer::sum));
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
                for (PrincipalActivity activity : PrincipalActivity.derive(facts, tx.events())) {
                    hot.computeIfPresent(activity.principal(), (address, count) -> count + 1);
                }
            }
        }
        NewBlock tip = blocks.get(blocks.size() - 1);
        String dex = built.tokenAssetId().substring(0, built.tokenAssetId().indexOf('.')) + "."
                + DemoContracts.DEX.name();
        String pending = mempool.isEmpty() ? null
                : Sha512_256.txId(Hex.decode(mempool.get(0).rawTx()));
        return new Summary(blocks.size(), tip.height(), tip.blockHash(), txCount, byType, byStatus, byEvent,
                microblockTxs, sponsored, mempool.size(), built.hotAddresses(), hot, examples, dex,
                built.tokenAssetId(), built.nftAssetId(), built.failedDeploymentContractId(),
                Objects.requireNonNull(failedCall), Objects.requireNonNull(postConditionAbort),
                Objects.requireNonNull(sponsoredTx), Objects.requireNonNull(microblockTx),
                Objects.requireNonNull(stxLockTx), pending);
    }
}
