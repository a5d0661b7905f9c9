package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Microblock transactions: served as unanchored rows on top of their parent block until an anchor
 * block settles them (confirmed ones are replaced by the anchor block's rows, the others become
 * non-canonical microblocks).
 */
final class Microblocks {

    private final ChainRows rows;

    Microblocks(ChainRows rows) {
        this.rows = rows;
    }

    /**
     * Writes the unanchored rows of microblocks whose parent block is stored; returns how many.
     * Each microblock written for the first time is added to {@code log}, by sequence.
     */
    int write(Statements sql, NewMicroblocks micro, ChainRows.BlockRef parent, ChangeLog log) throws SQLException {
        boolean onTip = parent.indexBlockHash().equals(sql.tip().indexBlockHash());
        Positions positions = sql.positions();
        long height = parent.height() + 1;
        Map<String, TxFacts> mined = new LinkedHashMap<>();
        int written = 0;
        Map<String, Integer> newMicroblocks = new LinkedHashMap<>();
        String lastHash = null;
        int lastSequence = -1;
        boolean mempoolChanged = false;
        // What is stored already, in two queries for the whole delivery instead of two per transaction:
        // microblocks an anchor block confirmed (any fork), and the unanchored rows written before.
        Set<String> microblockHashes = new HashSet<>();
        Set<String> txIds = new HashSet<>();
        for (NewTransaction tx : micro.transactions()) {
            microblockHashes.add(tx.microblockHash());
            txIds.add(tx.txId());
        }
        Set<String> confirmed = new HashSet<>(sql.queryIn(WriteSql.CONFIRMED_MICROBLOCKS_IN_CHUNK, microblockHashes,
                rs -> rs.getString(1)));
        Set<String> stored = new HashSet<>(sql.queryIn(WriteSql.TX_ROWS_IN_CHUNK, txIds,
                rs -> rs.getString(1) + "/" + rs.getString(2)));
        for (NewTransaction tx : micro.transactions()) {
            if (confirmed.contains(tx.microblockHash()) || !stored.add(tx.txId() + "/" + tx.microblockHash())) {
                continue;
            }
            ChainRows.Placement at = new ChainRows.Placement(tx.microblockHash(), "0x", height,
                    micro.receiptTime(), -1, -1, micro.parentBurnBlockTime(), parent.blockHash(),
                    parent.indexBlockHash(), true, true, onTip);
            // Not appended: a stream may arrive out of order. insertTransaction marks the lists of the
            // served rows instead; they are renumbered once, by the next anchor block (which settles
            // the stream and marks them again) or at the end of the database transaction
            // (Statements#finish).
            ChainRows.Derived derived = rows.derive(tx);
            rows.insertTransaction(sql, at, derived, positions, false);
            sql.servedUnanchored(true);
            written++;
            newMicroblocks.putIfAbsent(tx.microblockHash(), tx.microblockSequence());
            if (onTip) {
                mined.put(tx.txId(), derived.facts());
                if (tx.microblockSequence() > lastSequence) {
                    lastSequence = tx.microblockSequence();
                    lastHash = tx.microblockHash();
                }
            }
        }
        mempoolChanged |= MempoolWrites.removeMined(sql, mined);
        mempoolChanged |= MempoolReplacement.afterMined(sql, mined, null);
        if (lastHash != null) {
            sql.update(WriteSql.SET_TIP_MICROBLOCK, lastHash, lastSequence, parent.indexBlockHash(), lastSequence);
        }
        if (mempoolChanged) {
            sql.mempool().changed();
        }
        logNew(micro, parent, newMicroblocks, log);
        return written;
    }

    private static void logNew(NewMicroblocks micro, ChainRows.BlockRef parent, Map<String, Integer> written,
                               ChangeLog log) {
        NewMicroblocks.BurnBlock burn = micro.parentBurnBlock();
        Map<Integer, String> bySequence = new java.util.HashMap<>();
        for (NewTransaction tx : micro.transactions()) {
            bySequence.putIfAbsent(tx.microblockSequence(), tx.microblockHash());
        }
        written.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(m -> {
            String parentHash = micro.parentHashes().get(m.getKey());
            if (parentHash == null) {
                // A node always says; a payload made without it: the stream's previous microblock,
                // or the anchored block for the first one.
                parentHash = m.getValue() == 0 ? parent.blockHash() : bySequence.get(m.getValue() - 1);
            }
            log.microblock(parent.indexBlockHash(), new ChangeLog.MicroblockHeader(m.getKey(), m.getValue(),
                    parentHash, burn == null ? null : burn.hash(), burn == null ? null : burn.height(),
                    burn == null ? null : burn.time()));
        });
    }

    /** Where a confirmed microblock transaction stood while it was unanchored. */
    record UnanchoredPlace(int txIndex, long blockTime) {

        static String key(String microblockHash, String txId) {
            return microblockHash + "/" + txId;
        }
    }

    /**
     * A new canonical anchor block settles the unanchored microblock rows below it: the ones it
     * confirms are replaced by its own rows, the others become non-canonical microblocks.
     *
     * @return the confirmed transactions' unanchored places (by {@link UnanchoredPlace#key}): as at
     *         the peer, a transaction delivered in a microblock keeps the {@code tx_index} it had in
     *         its microblock and the {@code block_time} of the microblock's arrival once an anchor
     *         block confirms it, though the block lists it at a later index
     */
    static Map<String, UnanchoredPlace> settleUnanchored(Statements sql, NewBlock block, Positions positions)
            throws SQLException {
        Set<String> confirmed = new HashSet<>();
        for (NewTransaction tx : block.transactions()) {
            if (tx.inMicroblock()) {
                confirmed.add(tx.microblockHash());
            }
        }
        List<Positions.BlockAt> served = new ArrayList<>();
        if (!sql.noServedUnanchored()) {
            boolean above = false;
            for (Positions.BlockAt stream : sql.query(WriteSql.SERVED_UNANCHORED,
                    rs -> new Positions.BlockAt(rs.getString(1), rs.getLong(2)))) {
                if (stream.height() <= block.height()) {
                    served.add(stream);
                } else {
                    above = true;
                }
            }
            // What this block settles stops being served; only streams above it still are.
            sql.servedUnanchored(above);
        }
        for (Positions.BlockAt stream : served) {
            positions.dirty(stream.indexBlockHash(), stream.height());
            if (!confirmed.contains(stream.indexBlockHash())) {
                for (WriteStatement statement : List.of(WriteSql.SET_TXS_MICROBLOCK_CANONICAL,
                        WriteSql.SET_CONTRACTS_MICROBLOCK_CANONICAL)) {
                    sql.update(statement, false, stream.indexBlockHash());
                }
                for (WriteStatement statement : List.of(WriteSql.SET_EVENTS_MICROBLOCK_CANONICAL,
                        WriteSql.SET_PRINCIPAL_TXS_MICROBLOCK_CANONICAL)) {
                    sql.update(statement, false, stream.height(), stream.indexBlockHash());
                }
            }
        }
        Map<String, UnanchoredPlace> places = new java.util.HashMap<>();
        // The confirmed streams that have unanchored rows, with their height: their events and
        // history rows are found by both (V205); a stream without transaction rows has none.
        Set<Positions.BlockAt> confirmedRows = new HashSet<>();
        if (!confirmed.isEmpty()) {
            for (Object[] row : sql.queryIn(WriteSql.UNANCHORED_PLACES_IN_CHUNK, confirmed,
                    rs -> new Object[]{rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4), rs.getLong(5)})) {
                places.put(UnanchoredPlace.key((String) row[0], (String) row[1]),
                        new UnanchoredPlace((Integer) row[2], (Long) row[3]));
                confirmedRows.add(new Positions.BlockAt((String) row[0], (Long) row[4]));
            }
        }
        // The confirmed streams' unanchored rows, served or not, are replaced by the block's own rows.
        for (Positions.BlockAt stream : confirmedRows) {
            for (WriteStatement statement : List.of(WriteSql.DELETE_EVENTS_OF, WriteSql.DELETE_PRINCIPAL_TXS_OF)) {
                sql.update(statement, stream.height(), stream.indexBlockHash());
            }
        }
        for (String hash : confirmed) {
            for (WriteStatement statement : List.of(WriteSql.DELETE_CONTRACTS_OF, WriteSql.DELETE_TXS_OF)) {
                sql.update(statement, hash);
            }
        }
        return places;
    }
}
