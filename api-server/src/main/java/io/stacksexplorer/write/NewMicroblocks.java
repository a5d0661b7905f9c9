package io.stacksexplorer.write;

import java.util.List;

/**
 * Microblock transactions the node streamed on top of an anchored block, not yet confirmed by the
 * next anchor block (served as unanchored).
 *
 * @param parentIndexBlockHash the anchored block the stream builds on
 * @param parentBurnBlockTime  burn block time of that anchored block (the node sends it along)
 * @param receiptTime          Unix seconds when received; served as the unanchored block_time
 * @param transactions         each with its microblock hash and sequence
 */
public record NewMicroblocks(String parentIndexBlockHash, long parentBurnBlockTime, long receiptTime,
                             List<NewTransaction> transactions) {

    public NewMicroblocks {
        transactions = List.copyOf(transactions);
    }
}
