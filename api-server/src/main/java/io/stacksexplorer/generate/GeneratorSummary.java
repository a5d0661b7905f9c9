package io.stacksexplorer.generate;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * What a generated log holds, counted the way the API counts: transactions, blocks and contract
 * logs of the canonical chain (orphaned blocks and uncommitted events excluded), so that a replay
 * can be checked against it. Written beside the log as {@code FILE.tsv.summary.json}.
 */
public final class GeneratorSummary {

    long seed;
    String era;
    long transactions;
    long blocks;
    /** Canonical blocks per era: {@code "2"} (Stacks 2.x) and {@code "3"} (Nakamoto). */
    Map<String, Long> blocksByEra = new java.util.TreeMap<>(Map.of("2", 0L, "3", 0L));
    /** Nakamoto tenures of the canonical chain. */
    long tenures;
    /** The burn height from which blocks follow the Nakamoto rules, or -1 in a 2.x-only chain. */
    long epoch3ActivationBurnHeight = -1;
    /** Activation burn height of each later epoch the log reached ({@code "3.3"}, {@code "3.4"}, {@code "4.0"}). */
    Map<String, Long> epochs = new java.util.LinkedHashMap<>();
    /** Canonical Stacks transactions per epoch ({@code "2.x"}, {@code "3.0"} for 3.0-3.2, ...). */
    Map<String, Long> transactionsByEpoch = new java.util.TreeMap<>();
    /** Canonical Bitcoin-originated operations per {@code burnchain_op} kind (not among {@link #transactions}). */
    Map<String, Long> burnchainOperations = new java.util.TreeMap<>();
    long contractLogs;
    String hotAddress;
    long hotAddressTransactions;
    String hotContract;
    long hotContractLogs;
    long failedTransactions;
    long sponsoredTransactions;
    long contractDeployments;
    long microblocks;
    long orphanedMicroblocks;
    long microblockTransactions;
    long reorgs;
    long orphanedBlocks;
    long mempoolAnnounced;
    long mempoolDropped;
    long mempoolPendingAtEnd;
    long tipHeight;
    String tipIndexBlockHash;
    Map<String, Long> transactionTypes = Map.of();
    long lines;
    long bytes;
    double seconds;

    public long transactions() {
        return transactions;
    }

    public long blocks() {
        return blocks;
    }

    public String era() {
        return era;
    }

    public Map<String, Long> blocksByEra() {
        return blocksByEra;
    }

    public long tenures() {
        return tenures;
    }

    public long epoch3ActivationBurnHeight() {
        return epoch3ActivationBurnHeight;
    }

    public Map<String, Long> epochs() {
        return epochs;
    }

    public Map<String, Long> transactionsByEpoch() {
        return transactionsByEpoch;
    }

    public Map<String, Long> burnchainOperations() {
        return burnchainOperations;
    }

    /**
     * What the API serves as canonical transactions: the Stacks transactions and the Bitcoin-originated
     * operations the canonical blocks executed (served as the transactions they stand for).
     */
    public long servedTransactions() {
        return transactions + burnchainOperations.values().stream().mapToLong(Long::longValue).sum();
    }

    public long contractLogs() {
        return contractLogs;
    }

    public String hotAddress() {
        return hotAddress;
    }

    public long hotAddressTransactions() {
        return hotAddressTransactions;
    }

    public String hotContract() {
        return hotContract;
    }

    public long hotContractLogs() {
        return hotContractLogs;
    }

    public long reorgs() {
        return reorgs;
    }

    public long microblocks() {
        return microblocks;
    }

    public long orphanedMicroblocks() {
        return orphanedMicroblocks;
    }

    public long mempoolDropped() {
        return mempoolDropped;
    }

    public long mempoolPendingAtEnd() {
        return mempoolPendingAtEnd;
    }

    public long tipHeight() {
        return tipHeight;
    }

    public String tipIndexBlockHash() {
        return tipIndexBlockHash;
    }

    /** Canonical transactions per {@code tx_type}. */
    public Map<String, Long> transactionTypes() {
        return transactionTypes;
    }

    public long lines() {
        return lines;
    }

    public double seconds() {
        return seconds;
    }

    public void write(Path file) throws IOException {
        try (JsonGenerator g = JsonFactory.builder().build().createGenerator(file.toFile(), JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeNumberField("seed", seed);
            g.writeStringField("era", era);
            g.writeNumberField("transactions", transactions);
            g.writeNumberField("blocks", blocks);
            g.writeObjectFieldStart("blocks_by_era");
            for (Map.Entry<String, Long> e : blocksByEra.entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeNumberField("tenures", tenures);
            if (epoch3ActivationBurnHeight < 0) {
                g.writeNullField("epoch_3_activation_burn_height");
            } else {
                g.writeNumberField("epoch_3_activation_burn_height", epoch3ActivationBurnHeight);
            }
            writeMap(g, "epoch_activation_burn_heights", epochs);
            writeMap(g, "transactions_by_epoch", transactionsByEpoch);
            writeMap(g, "burnchain_operations", burnchainOperations);
            g.writeNumberField("contract_logs", contractLogs);
            g.writeStringField("hot_address", hotAddress);
            g.writeNumberField("hot_address_transactions", hotAddressTransactions);
            g.writeStringField("hot_contract", hotContract);
            g.writeNumberField("hot_contract_logs", hotContractLogs);
            g.writeNumberField("failed_transactions", failedTransactions);
            g.writeNumberField("sponsored_transactions", sponsoredTransactions);
            g.writeNumberField("contract_deployments", contractDeployments);
            g.writeNumberField("microblocks", microblocks);
            g.writeNumberField("orphaned_microblocks", orphanedMicroblocks);
            g.writeNumberField("microblock_transactions", microblockTransactions);
            g.writeNumberField("reorgs", reorgs);
            g.writeNumberField("orphaned_blocks", orphanedBlocks);
            g.writeNumberField("mempool_announced", mempoolAnnounced);
            g.writeNumberField("mempool_dropped", mempoolDropped);
            g.writeNumberField("mempool_pending_at_end", mempoolPendingAtEnd);
            g.writeNumberField("tip_height", tipHeight);
            g.writeStringField("tip_index_block_hash", tipIndexBlockHash);
            g.writeObjectFieldStart("transaction_types");
            for (Map.Entry<String, Long> e : transactionTypes.entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeNumberField("lines", lines);
            g.writeNumberField("bytes", bytes);
            g.writeNumberField("seconds", Math.round(seconds * 10) / 10.0);
            g.writeEndObject();
        }
    }

    private static void writeMap(JsonGenerator g, String field, Map<String, Long> map) throws IOException {
        g.writeObjectFieldStart(field);
        for (Map.Entry<String, Long> e : map.entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s era: %d transactions in %d blocks (%s by era, %d tenures, %d microblocks,"
                        + " %d reorgs), %d contract logs;"
                        + " hot address %s in %d transactions (%.1f%%), hot contract %s with %d logs (%.1f%%);"
                        + " %d lines, %.1f s", era, transactions, blocks, blocksByEra, tenures, microblocks, reorgs,
                contractLogs, hotAddress,
                hotAddressTransactions, 100.0 * hotAddressTransactions / Math.max(1, transactions), hotContract,
                hotContractLogs, 100.0 * hotContractLogs / Math.max(1, contractLogs), lines, seconds)
                + (epochs.isEmpty() ? "" : "; epochs from burn height " + epochs + ", transactions by epoch "
                + transactionsByEpoch + ", Bitcoin operations " + burnchainOperations);
    }
}
