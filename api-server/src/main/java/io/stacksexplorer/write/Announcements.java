package io.stacksexplorer.write;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a database transaction was told in advance it is about to write (a replay's batch announces
 * its payloads, blocks and mempool transactions before writing any), learnt in a few bulk queries,
 * so that writing each one needs no query of its own: which payloads are stored, which blocks are
 * absent, what the mempool holds and the chain mined. Kept true by following the transaction's own
 * writes ({@link #beforeWrite}, {@link #queuedCanonicalTx}, {@link #sent}).
 */
final class Announcements {

    private final Statements sql;
    /** Payload hashes announced by {@link #expectPayloads}: those stored before, and those this transaction added. */
    private final Set<String> expectedPayloads = new HashSet<>();
    private final Set<String> storedPayloads = new HashSet<>();

    Announcements(Statements sql) {
        this.sql = sql;
    }

    /**
     * Learns in one query which of the payloads this transaction is about to store are stored
     * already; storing each of them is then a batched insert ({@link #storeNewPayload}) instead of a
     * round trip.
     */
    void expectPayloads(Collection<String> hashes) throws SQLException {
        List<String> unknown = new ArrayList<>();
        for (String hash : hashes) {
            if (expectedPayloads.add(hash)) {
                unknown.add(hash);
            }
        }
        storedPayloads.addAll(sql.queryIn(WriteSql.NODE_EVENTS_STORED_IN_CHUNK,
                sql.mayBeStored(WrittenKeys.Kind.PAYLOAD_HASHES, unknown), rs -> rs.getString(1)));
    }

    /**
     * Queues a payload announced by {@link #expectPayloads} for insertion unless it is stored already
     * (or earlier in this transaction); null when it was not announced (the caller checks itself).
     */
    Boolean storeNewPayload(RawPayload raw) throws SQLException {
        String hash = raw.payloadHash();
        if (!expectedPayloads.contains(hash)) {
            return null;
        }
        if (!storedPayloads.add(hash)) {
            return false;
        }
        sql.addBatch(WriteSql.INSERT_NODE_EVENT, raw.receivedAt(), raw.path(), hash, raw.body());
        return true;
    }

    /**
     * Blocks announced by {@link #expectBlocks} that are not stored: {@link ChainRows#findBlock}
     * answers for them without a query. A block leaves the set when this transaction writes it
     * ({@link #blockWritten}); nothing else inserts blocks (one writer), so the set stays true.
     */
    private final Set<String> absentBlocks = new HashSet<>();

    /**
     * Learns in one query per {@value StatementQueue#CHUNK} hashes which of the blocks this transaction is about
     * to write are stored already: one round trip for a replay's batch instead of one per block.
     */
    void expectBlocks(Collection<String> indexBlockHashes) throws SQLException {
        Set<String> unknown = new HashSet<>(indexBlockHashes);
        unknown.removeAll(absentBlocks);
        if (unknown.isEmpty()) {
            return;
        }
        List<String> stored = sql.queryIn(WriteSql.BLOCKS_STORED_IN_CHUNK,
                sql.mayBeStored(WrittenKeys.Kind.BLOCKS, unknown), rs -> rs.getString(1));
        unknown.removeAll(stored);
        absentBlocks.addAll(unknown);
    }

    /** True when {@code indexBlockHash} is known not to be stored (announced, not written since). */
    boolean knownAbsentBlock(String indexBlockHash) {
        return absentBlocks.contains(indexBlockHash);
    }

    /** This transaction wrote (queued) the block: no longer absent. */
    void blockWritten(String indexBlockHash) {
        absentBlocks.remove(indexBlockHash);
    }

    /**
     * Canonical transactions queued for {@code txs} and not sent yet. Their flags cannot change
     * while they wait: every statement that flips flags names txs and so sends them first.
     */
    private final Set<String> queuedCanonicalTxs = new HashSet<>();

    /** A canonical, served transaction row was just queued ({@link WriteSql#INSERT_TX}). */
    void queuedCanonicalTx(String txId) {
        queuedCanonicalTxs.add(txId);
        canonicalTxsWritten.add(txId);
    }

    /** What the mempool check of new transactions learns ({@link #mempoolKnownOrMined}). */
    record MempoolKnowledge(Set<String> known, Set<String> mined) {
    }

    /**
     * Transaction ids announced by {@link #expectMempoolTransactions} before this transaction wrote
     * anything, with what the committed rows said of them then: held by {@code mempool_txs}
     * ({@link #announcedKnown}), mined on the canonical chain and served ({@link #announcedMined}).
     * Together with the canonical rows this transaction writes ({@link #canonicalTxsWritten}) that
     * answers {@link #mempoolKnownOrMined} for them without a query, for as long as nothing else
     * changes those answers: a statement that could (a reorg's or a microblock's flag flips, a
     * transaction returned to the mempool) forgets the announcement ({@link #beforeWrite}), and the
     * database is asked again, as without one.
     */
    private final Set<String> announcedMempoolIds = new HashSet<>();
    private final Set<String> announcedKnown = new HashSet<>();
    private final Set<String> announcedMined = new HashSet<>();
    /** Every canonical, served transaction row this transaction wrote, sent or still queued. */
    private final Set<String> canonicalTxsWritten = new HashSet<>();
    /** Whether this transaction wrote (or queued) anything yet: announcements come before. */
    private boolean wroteAnything;

    /**
     * Statements on {@code txs} and {@code mempool_txs} that leave an announcement true: the
     * transaction inserts are followed through {@link #queuedCanonicalTx}, and the state updates
     * change neither which ids the mempool holds nor what is mined.
     */
    private static final Set<WriteStatement> KEEP_MEMPOOL_ANNOUNCEMENT =
            Set.of(WriteSql.INSERT_TX, MempoolWrites.SET_MEMPOOL_STATE, MempoolWrites.SET_MINED_POSTGRESQL);

    /** Called for every statement that writes, before it is queued or sent. */
    void beforeWrite(WriteStatement statement) {
        wroteAnything = true;
        if (!announcedMempoolIds.isEmpty() && !KEEP_MEMPOOL_ANNOUNCEMENT.contains(statement)
                && (statement.writes().contains(Table.TXS) || statement.writes().contains(Table.MEMPOOL_TXS))) {
            announcedMempoolIds.clear();
            announcedKnown.clear();
            announcedMined.clear();
        }
    }

    /** The rows of {@code statement} were sent (null: the whole queue): queued transactions are sent rows now. */
    void sent(WriteStatement statement) {
        if (statement == null || WriteSql.INSERT_TX.equals(statement)) {
            queuedCanonicalTxs.clear();
        }
    }

    /**
     * Learns in one query per {@value StatementQueue#CHUNK} ids what the committed rows say of the mempool
     * transactions this transaction is about to add ({@link #announcedMempoolIds}). Only before the
     * transaction writes: afterwards the rows it queued would be missing from the answer.
     */
    void expectMempoolTransactions(Collection<String> txIds) throws SQLException {
        if (wroteAnything) {
            return;
        }
        Set<String> unknown = new LinkedHashSet<>(txIds);
        unknown.removeAll(announcedMempoolIds);
        if (unknown.isEmpty()) {
            return;
        }
        MempoolKnowledge committed = askMempoolKnownOrMined(unknown);
        announcedMempoolIds.addAll(unknown);
        announcedKnown.addAll(committed.known());
        announcedMined.addAll(committed.mined());
    }

    /**
     * Of {@code txIds}: those {@code mempool_txs} holds already (pending or not), and those mined on
     * the canonical chain and served (the database's rows plus the queued ones). Ids announced by
     * {@link #expectMempoolTransactions} are answered from memory; the others cost one query per
     * {@value StatementQueue#CHUNK} ids for both questions (a replay without the announcement asked them for
     * every run of mempool deliveries between two blocks). Queued mempool inserts are sent first; queued transactions are
     * not, which would send the rows of every block in a COPY of their own: they are accounted for
     * here instead (their flags cannot change while they wait, since every statement that flips
     * flags names txs and so sends them first).
     */
    MempoolKnowledge mempoolKnownOrMined(Collection<String> txIds) throws SQLException {
        Set<String> known = new HashSet<>();
        Set<String> mined = new HashSet<>();
        List<String> asked = new ArrayList<>(txIds.size());
        for (String txId : txIds) {
            if (!announcedMempoolIds.contains(txId)) {
                asked.add(txId);
                continue;
            }
            if (announcedKnown.contains(txId)) {
                known.add(txId);
            }
            if (announcedMined.contains(txId) || canonicalTxsWritten.contains(txId)) {
                mined.add(txId);
            }
        }
        if (!asked.isEmpty()) {
            MempoolKnowledge fromDatabase = askMempoolKnownOrMined(asked);
            known.addAll(fromDatabase.known());
            mined.addAll(fromDatabase.mined());
        }
        return new MempoolKnowledge(known, mined);
    }

    private MempoolKnowledge askMempoolKnownOrMined(Collection<String> txIds) throws SQLException {
        Set<String> known = new HashSet<>();
        Set<String> mined = new HashSet<>();
        // Ids this process never wrote are in neither table: only the others are asked.
        List<String> asked = sql.mayBeStored(WrittenKeys.Kind.TX_IDS, txIds);
        if (!asked.isEmpty()) {
            // Only inserts change which ids the mempool holds: queued state changes (pruned, status)
            // stay queued instead of costing a round trip before every run of mempool deliveries.
            sql.executeBatch(MempoolWrites.INSERT_MEMPOOL_TX_STATE);
            int places = asked.size() <= 1 ? 1 : Math.min(StatementQueue.CHUNK, Integer.highestOneBit(asked.size() - 1) << 1);
            for (Object[] row : sql.queryChunks(
                    MempoolWrites.MEMPOOL_KNOWN_OR_MINED_BY_LOG2_PLACES.get(Integer.numberOfTrailingZeros(places)), places,
                    asked, 2, false, rs -> new Object[]{rs.getString(1), rs.getInt(2)})) {
                ((Integer) row[1] == 1 ? mined : known).add((String) row[0]);
            }
        }
        for (String txId : txIds) {
            if (queuedCanonicalTxs.contains(txId)) {
                mined.add(txId);
            }
        }
        return new MempoolKnowledge(known, mined);
    }
}
