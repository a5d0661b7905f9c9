package io.stacksexplorer.write;

import java.util.List;

/**
 * An anchored block as it enters the write path, with every transaction it mines (including the
 * microblock transactions it confirms). Hashes are lowercase {@code 0x}-hex.
 *
 * @param parentBurnBlockTime burn block time of the parent block; served as each transaction's
 *                            {@code parent_burn_block_time}
 * @param parentMicroblockHash the last microblock of the parent's stream that this block confirms,
 *                             {@code 0x00…00} when it confirms none
 * @param held                 the block's transactions this build cannot read yet: counted in the block's
 *                             {@code tx_count}, recorded, not served ({@link HeldTransaction})
 */
public record NewBlock(
        String blockHash,
        String indexBlockHash,
        long height,
        String parentBlockHash,
        String parentIndexBlockHash,
        String parentMicroblockHash,
        int parentMicroblockSequence,
        long blockTime,
        long burnBlockTime,
        String burnBlockHash,
        long burnBlockHeight,
        long parentBurnBlockTime,
        String minerTxid,
        List<NewTransaction> transactions,
        Long tenureHeight,
        List<HeldTransaction> held) {

    public NewBlock {
        transactions = List.copyOf(transactions);
        held = List.copyOf(held);
    }

    /** A block whose transactions this build reads, every one. */
    public NewBlock(String blockHash, String indexBlockHash, long height, String parentBlockHash,
                    String parentIndexBlockHash, String parentMicroblockHash, int parentMicroblockSequence,
                    long blockTime, long burnBlockTime, String burnBlockHash, long burnBlockHeight,
                    long parentBurnBlockTime, String minerTxid, List<NewTransaction> transactions, Long tenureHeight) {
        this(blockHash, indexBlockHash, height, parentBlockHash, parentIndexBlockHash, parentMicroblockHash,
                parentMicroblockSequence, blockTime, burnBlockTime, burnBlockHash, burnBlockHeight,
                parentBurnBlockTime, minerTxid, transactions, tenureHeight, List.of());
    }

    /** How many transactions the block holds: those written and those held. */
    public int txCount() {
        return transactions.size() + held.size();
    }

    /** A block whose payload reports no tenure height (pre-Nakamoto; see {@link #tenureHeight}). */
    public NewBlock(String blockHash, String indexBlockHash, long height, String parentBlockHash,
                    String parentIndexBlockHash, String parentMicroblockHash, int parentMicroblockSequence,
                    long blockTime, long burnBlockTime, String burnBlockHash, long burnBlockHeight,
                    long parentBurnBlockTime, String minerTxid, List<NewTransaction> transactions) {
        this(blockHash, indexBlockHash, height, parentBlockHash, parentIndexBlockHash, parentMicroblockHash,
                parentMicroblockSequence, blockTime, burnBlockTime, burnBlockHash, burnBlockHeight,
                parentBurnBlockTime, minerTxid, transactions, null);
    }
}
