package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fork choice when a block higher than the tip arrives: its non-canonical ancestors rejoin the
 * canonical chain, every other canonical block above the fork point leaves it, each together with
 * everything hanging from it; the positions (and so the counters) of the lists it touches are
 * renumbered from the fork point up by {@link Positions}.
 */
final class Reorgs {

    /**
     * What switching to a new block's fork changed.
     *
     * @param orphaned  blocks that left the canonical chain
     * @param restored  blocks that rejoined it, newest first
     * @param leftChain transactions the orphaned blocks had mined, each with the block that mined it
     * @param rejoined  transactions the restored blocks mine
     */
    record ForkSwitch(List<String> orphaned, List<String> restored, Map<String, String> leftChain,
                      Set<String> rejoined) {
    }

    private Reorgs() {
    }

    /**
     * Makes the fork of a new tip block (not yet stored) canonical.
     *
     * @param tipIndexBlockHash the current tip (null before the first block)
     */
    static ForkSwitch switchTo(Statements sql, NewBlock block, Positions positions, String tipIndexBlockHash)
            throws SQLException {
        if (block.parentIndexBlockHash().equals(tipIndexBlockHash)) {
            // The common case, a child of the tip: nothing leaves or rejoins the canonical chain.
            return new ForkSwitch(new ArrayList<>(), new ArrayList<>(), new LinkedHashMap<>(), new LinkedHashSet<>());
        }
        // Walk back from the parent through non-canonical ancestors to the fork point.
        List<Positions.BlockAt> restored = new ArrayList<>();
        long forkHeight = block.height() - 1;
        ChainRows.BlockRef cursor = ChainRows.findBlock(sql, block.parentIndexBlockHash());
        while (cursor != null && !cursor.canonical()) {
            restored.add(new Positions.BlockAt(cursor.indexBlockHash(), cursor.height()));
            forkHeight = cursor.height() - 1;
            cursor = ChainRows.findBlock(sql, cursor.parentIndexBlockHash());
        }
        if (cursor != null) {
            forkHeight = cursor.height();
        }
        List<Positions.BlockAt> orphaned = sql.query(WriteSql.CANONICAL_BLOCKS_ABOVE,
                rs -> new Positions.BlockAt(rs.getString(1), rs.getLong(2)), forkHeight);

        Map<String, String> leftChain = new LinkedHashMap<>();
        for (Positions.BlockAt orphan : orphaned) {
            for (String txId : sql.query(WriteSql.TX_IDS_OF_BLOCK, rs -> rs.getString(1), orphan.indexBlockHash())) {
                leftChain.putIfAbsent(txId, orphan.indexBlockHash());
            }
            setCanonical(sql, orphan, false, positions);
        }
        Set<String> rejoined = new LinkedHashSet<>();
        for (Positions.BlockAt restoredBlock : restored) {
            rejoined.addAll(sql.query(WriteSql.TX_IDS_OF_BLOCK, rs -> rs.getString(1), restoredBlock.indexBlockHash()));
            setCanonical(sql, restoredBlock, true, positions);
        }
        return new ForkSwitch(orphaned.stream().map(Positions.BlockAt::indexBlockHash).toList(),
                restored.stream().map(Positions.BlockAt::indexBlockHash).toList(), leftChain, rejoined);
    }

    /** Flips one block and everything hanging from it; its lists are renumbered afterwards. */
    private static void setCanonical(Statements sql, Positions.BlockAt block, boolean canonical, Positions positions)
            throws SQLException {
        positions.dirty(block.indexBlockHash(), block.height());
        for (WriteStatement statement : List.of(WriteSql.SET_BLOCK_CANONICAL, WriteSql.SET_TXS_CANONICAL,
                WriteSql.SET_CONTRACTS_CANONICAL)) {
            sql.update(statement, canonical, block.indexBlockHash());
        }
        // Found by height and hash, the leading columns of their block keys (V205).
        for (WriteStatement statement : List.of(WriteSql.SET_EVENTS_CANONICAL, WriteSql.SET_PRINCIPAL_TXS_CANONICAL)) {
            sql.update(statement, canonical, block.height(), block.indexBlockHash());
        }
    }
}
