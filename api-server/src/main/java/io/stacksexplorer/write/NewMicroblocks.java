package io.stacksexplorer.write;

import java.util.List;
import java.util.Map;

/**
 * Microblock transactions the node streamed on top of an anchored block, not yet confirmed by the
 * next anchor block (served as unanchored).
 *
 * @param parentIndexBlockHash the anchored block the stream builds on
 * @param parentBurnBlockTime  burn block time of that anchored block (the node sends it along)
 * @param receiptTime          Unix seconds when received; served as the unanchored block_time
 * @param transactions         each with its microblock hash and sequence
 * @param parentBurnBlock      the burn block of the anchored block the stream builds on, as the node
 *                             sends it along; {@code null} when not known (then not announced with it)
 * @param parentHashes         each microblock's parent (by microblock hash): the previous microblock
 *                             of the stream, or the anchored block's hash for the first one
 */
public record NewMicroblocks(String parentIndexBlockHash, long parentBurnBlockTime, long receiptTime,
                             List<NewTransaction> transactions, BurnBlock parentBurnBlock,
                             Map<String, String> parentHashes) {

    /** A burn block: its hash, height and time (Unix seconds). */
    public record BurnBlock(String hash, long height, long time) {
    }

    public NewMicroblocks {
        transactions = List.copyOf(transactions);
        parentHashes = Map.copyOf(parentHashes);
    }

    /** Microblocks without their headers' other facts (the parent burn block, the parent hashes). */
    public NewMicroblocks(String parentIndexBlockHash, long parentBurnBlockTime, long receiptTime,
                          List<NewTransaction> transactions) {
        this(parentIndexBlockHash, parentBurnBlockTime, receiptTime, transactions, null, Map.of());
    }
}
