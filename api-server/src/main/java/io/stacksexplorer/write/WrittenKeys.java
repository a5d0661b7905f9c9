package io.stacksexplorer.write;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys this process has written into a few tables (transaction ids, payload hashes, block
 * hashes, the principals and contracts that have a counter row), each kind in a Bloom filter, so
 * that the write path can tell a key it never wrote from one it may have written without asking
 * the database. Once the tables of a kind were seen empty, a key its filter never held is in none
 * of their rows. The look-ups that ask whether a transaction, payload or block is new
 * ({@link Statements#mempoolKnownOrMined}, {@link Statements#expectPayloads},
 * {@link Statements#expectBlocks}) and those of the position counters ({@link Positions}) then ask
 * the database only for the keys the filter may hold: those this process wrote, and about 1 % of
 * the others. On a sync from genesis those look-ups found nothing for nearly every key and cost
 * PostgreSQL 12 % of its statement time (1,000,000-transaction mixed log, docs/performance.md).
 *
 * <p>Correct because this process is the only writer (see {@link WriteSql}): every statement that
 * inserts into a tracked table passes {@link #noteWrite} before it is queued or sent, and its key is
 * added then; a transaction that rolls back leaves keys the tables lack, which only costs a query.
 * A statement that writes a tracked table and is neither a declared inserter nor an UPDATE or
 * DELETE, or more keys than the kind's maximum, makes that kind incomplete for the life of the
 * process: its look-ups go to the database, as before. So do tables that held rows when first asked
 * (a server restarted on a filled database).
 */
final class WrittenKeys {

    /** A kind of key, the tables whose rows it keys, and the statements that insert such rows. */
    enum Kind {
        /** Transaction ids of {@code txs} and {@code mempool_txs} rows. */
        TX_IDS(16_000_000, List.of(WriteSql.ANY_TX, WriteSql.ANY_MEMPOOL_TX), Map.of(
                WriteSql.INSERT_TX, 0,
                MempoolWrites.INSERT_MEMPOOL_TX, 0,
                MempoolWrites.INSERT_MEMPOOL_TX_STATE, 0,
                MempoolWrites.INSERT_MEMPOOL_TXS_WITH_PRINCIPALS_POSTGRESQL, ADDED_BY_CALLER),
                Table.TXS, Table.MEMPOOL_TXS),
        /** Payload hashes of {@code node_events}. */
        PAYLOAD_HASHES(8_000_000, List.of(WriteSql.ANY_NODE_EVENT), Map.of(
                WriteSql.INSERT_NODE_EVENT, 2,
                WriteSql.INSERT_NODE_EVENT_IF_NEW, 2,
                WriteSql.ACCEPT_PAYLOAD_POSTGRESQL, 2),
                Table.NODE_EVENTS),
        /** Index block hashes of {@code blocks}. */
        BLOCKS(4_000_000, List.of(WriteSql.ANY_BLOCK), Map.of(WriteSql.INSERT_BLOCK, 0), Table.BLOCKS),
        /** Principals of {@code principal_stats} (a principal without a row has no history yet). */
        PRINCIPAL_COUNTERS(4_000_000, List.of(WriteSql.ANY_PRINCIPAL_COUNT), Map.of(
                WriteSql.INSERT_PRINCIPAL_COUNT, 1,
                WriteSql.SET_PRINCIPAL_COUNTS_POSTGRESQL, ADDED_BY_CALLER),
                Table.PRINCIPAL_STATS),
        /** Contracts of {@code contract_log_stats}. */
        CONTRACT_LOG_COUNTERS(1_000_000, List.of(WriteSql.ANY_CONTRACT_LOG_COUNT), Map.of(
                WriteSql.INSERT_CONTRACT_LOG_COUNT, 1,
                WriteSql.SET_CONTRACT_LOG_COUNTS_POSTGRESQL, ADDED_BY_CALLER),
                Table.CONTRACT_LOG_STATS);

        /**
         * Keys the kind holds at most (about 25 MB of filters for 16 million transaction and mempool
         * ids); more than that, and its look-ups go to the database again.
         */
        final long maxKeys;
        /** Statements that find a row of each table (none: the tables are empty). */
        final List<WriteStatement> anyRow;
        /** Inserting statements, with the parameter that binds the key ({@link #ADDED_BY_CALLER}: the caller adds it). */
        final Map<WriteStatement, Integer> inserters;
        final Set<Table> tables;

        Kind(long maxKeys, List<WriteStatement> anyRow, Map<WriteStatement, Integer> inserters, Table first,
             Table... more) {
            this.maxKeys = maxKeys;
            this.anyRow = anyRow;
            this.inserters = inserters;
            this.tables = java.util.EnumSet.of(first, more);
        }
    }

    /** An inserter whose key parameter is an array: the caller adds the keys ({@link #add}). */
    static final int ADDED_BY_CALLER = -1;

    private static final double FALSE_POSITIVES = 0.01;
    /** {@code -Dstacks.write.keyFilters=false}: every look-up asks the database (for comparison). */
    private static final boolean ENABLED = Boolean.parseBoolean(System.getProperty("stacks.write.keyFilters", "true"));

    private enum State { UNKNOWN, COMPLETE, INCOMPLETE }

    /**
     * The keys of one kind: Bloom filters of growing size (the first for {@value #FIRST_LEVEL} keys,
     * each next one for four times as many), so that memory follows the keys written (9.6 bits a
     * key at 1 % false positives; under a megabyte for a small chain) instead of a size fixed ahead.
     * A key is looked up in each; the false-positive rates add up (at most about 1 % a level).
     */
    private static final class Filter {
        final long maxKeys;
        volatile State state = ENABLED ? State.UNKNOWN : State.INCOMPLETE;
        volatile List<BloomFilter<CharSequence>> levels = List.of();
        /** Keys added, how many all levels so far are sized for, and the newest level's size. */
        long added;
        long sizedFor;
        long lastSize;

        Filter(long maxKeys) {
            this.maxKeys = maxKeys;
        }

        synchronized void add(String key) {
            if (state == State.INCOMPLETE) {
                return;
            }
            if (++added > maxKeys) {
                markIncomplete();
                return;
            }
            if (added > sizedFor) {
                long size = Math.min(levels.isEmpty() ? FIRST_LEVEL : 4 * lastSize, maxKeys - sizedFor);
                List<BloomFilter<CharSequence>> more = new ArrayList<>(levels);
                more.add(BloomFilter.create(Funnels.stringFunnel(StandardCharsets.US_ASCII), size, FALSE_POSITIVES));
                sizedFor += size;
                lastSize = size;
                levels = List.copyOf(more);
            }
            levels.get(levels.size() - 1).put(key);
        }

        synchronized void markIncomplete() {
            state = State.INCOMPLETE;
            levels = List.of();
        }

        /**
         * The first look-up's answer: complete when the tables were empty, unless the kind was
         * made incomplete meanwhile. One lock with {@link #add} and {@link #markIncomplete}, so
         * that neither is overwritten.
         */
        synchronized void settle(boolean tablesEmpty) {
            if (state == State.UNKNOWN) {
                state = tablesEmpty ? State.COMPLETE : State.INCOMPLETE;
            }
        }

        static boolean mightHold(List<BloomFilter<CharSequence>> in, String key) {
            for (BloomFilter<CharSequence> level : in) {
                if (level.mightContain(key)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final int FIRST_LEVEL = 65_536;

    private final Map<Kind, Filter> filters = new EnumMap<>(Kind.class);

    WrittenKeys() {
        for (Kind kind : Kind.values()) {
            filters.put(kind, new Filter(kind.maxKeys));
        }
    }

    /** Every kind holding at most {@code maxKeys} keys (tests). */
    WrittenKeys(long maxKeys) {
        for (Kind kind : Kind.values()) {
            filters.put(kind, new Filter(maxKeys));
        }
    }

    /**
     * Called for every writing statement before it is queued or sent, with its parameters: adds the
     * key a declared inserter binds; any other statement that may insert into a tracked table
     * makes its kind incomplete.
     */
    void noteWrite(WriteStatement sql, Object[] params) {
        for (Kind kind : Kind.values()) {
            if (!intersects(sql.writes(), kind.tables)) {
                continue;
            }
            Integer keyAt = kind.inserters.get(sql);
            if (keyAt != null) {
                if (keyAt != ADDED_BY_CALLER) {
                    add(kind, (String) params[keyAt]);
                }
            } else if (!removesOrUpdatesOnly(sql)) {
                filters.get(kind).markIncomplete();
            }
        }
    }

    /** Keys {@code inserter}, declared with {@link #ADDED_BY_CALLER}, binds as an array. */
    void add(WriteStatement inserter, Collection<String> keys) {
        for (Kind kind : Kind.values()) {
            Integer keyAt = kind.inserters.get(inserter);
            if (keyAt != null && keyAt == ADDED_BY_CALLER) {
                for (String key : keys) {
                    add(kind, key);
                }
            }
        }
    }

    private void add(Kind kind, String key) {
        filters.get(kind).add(key);
    }

    /**
     * Of {@code keys}, those a row of the kind's tables may hold: all of them unless the kind is
     * complete. The first call of a kind asks {@code sql} whether its tables are empty.
     */
    List<String> mayBeStored(Kind kind, Collection<String> keys, Statements sql) throws SQLException {
        return mayBeStored(kind, keys, sql::existsPastTheQueue);
    }

    /** Whether a statement of {@link Kind#anyRow} finds a row (asked once per kind, see {@link #mayBeStored}). */
    @FunctionalInterface
    interface RowProbe {
        boolean exists(WriteStatement anyRow) throws SQLException;
    }

    /** As {@link #mayBeStored(Kind, Collection, Statements)}, for a caller outside {@link Statements} (plain JDBC). */
    List<String> mayBeStored(Kind kind, Collection<String> keys, RowProbe probe) throws SQLException {
        Filter filter = filters.get(kind);
        if (filter.state == State.UNKNOWN) {
            boolean empty = true;
            for (WriteStatement anyRow : kind.anyRow) {
                empty &= !probe.exists(anyRow);
            }
            // Rows queued and not yet sent are in the filter already: they were added when queued.
            filter.settle(empty);
        }
        List<BloomFilter<CharSequence>> written = filter.levels;
        if (filter.state != State.COMPLETE) {
            return keys instanceof List<String> list ? list : new ArrayList<>(keys);
        }
        List<String> maybe = new ArrayList<>();
        for (String key : keys) {
            if (Filter.mightHold(written, key)) {
                maybe.add(key);
            }
        }
        return maybe;
    }

    /** Whether look-ups of {@code kind} skip the keys never written (for tests and the benchmark's report). */
    boolean complete(Kind kind) {
        return filters.get(kind).state == State.COMPLETE;
    }

    private static boolean intersects(Set<Table> a, Set<Table> b) {
        for (Table table : a) {
            if (b.contains(table)) {
                return true;
            }
        }
        return false;
    }

    /** An UPDATE or DELETE adds no key (none of the write path's changes a key column). */
    private static boolean removesOrUpdatesOnly(WriteStatement sql) {
        String text = sql.sql().stripLeading();
        return text.regionMatches(true, 0, "UPDATE ", 0, 7) || text.regionMatches(true, 0, "DELETE ", 0, 7);
    }
}
