package io.stacksexplorer.query;

import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Read facade for the peer's cursor-paged successor routes (v3 principal transactions and mempool,
 * v2 contract logs). A cursor there names a row by its place in chain order; here it is turned into
 * the row's dense position (migration V10) once, and the page is the same index range as the offset
 * pages of the seed's routes: a cursor naming a row is one point lookup through its block, one that
 * names no row (hand-made, or its row left the canonical chain) a binary search over positions, so
 * a page costs the same at any depth and no statement reads the rows above it.
 */
@Singleton
public class CursorPages {

    private final AddressStore addresses;
    private final ChainOrderStore order;
    private final MempoolStore mempool;

    CursorPages(AddressStore addresses, ChainOrderStore order, MempoolStore mempool) {
        this.addresses = addresses;
        this.order = order;
        this.mempool = mempool;
    }

    /**
     * A principal's confirmed transactions from the newest at or below {@code cursor} (from the newest
     * of all without one): {@code limit} rows and the next page's first, then the key {@code limit}
     * rows above the first.
     */
    public KeyedPage<AddressQueries.AddressTx, ChainKey> principalTransactions(String principal, int limit,
                                                                              @Nullable ChainKey cursor) {
        long top = Long.MAX_VALUE;
        if (cursor != null) {
            top = order.historyPositionAt(principal, cursor).orElseGet(() -> {
                // The peer reads H:0:0 that names no row as the top of block H.
                ChainKey key = cursor.microblockSequence() == 0 && cursor.txIndex() == 0
                        ? ChainKey.topOfBlock(cursor.blockHeight()) : cursor;
                return floor(order.historyCount(principal), key, p -> order.historyKeyAt(principal, p).orElse(null));
            });
        }
        AddressStore.HistoryPage page = addresses.historyPage(principal, 0, top, limit + 1);
        List<AddressQueries.AddressTx> rows = new ArrayList<>();
        List<ChainKey> keys = new ArrayList<>();
        long first = 0;
        for (AddressStore.HistoryRow row : page.rows()) {
            if (row.tx() == null) {
                continue; // its block left the canonical chain since the position was read
            }
            if (rows.isEmpty()) {
                first = row.activity().historyPosition();
            }
            rows.add(new AddressQueries.AddressTx(row.activity(), row.tx()));
            keys.add(new ChainKey(row.tx().blockHeight(), row.tx().microblockSequence(), row.tx().txIndex(), 0));
        }
        ChainKey newer = null;
        if (!rows.isEmpty() && first < page.total()) {
            newer = order.historyKeyAt(principal, Math.min(first + limit, page.total())).orElse(null);
        }
        return cut(rows, keys, limit, page.total(), 0, newer);
    }

    /**
     * A contract's anchored log events from the newest at or below {@code cursor} (from the newest of
     * all without one), {@code offset} further down; the first event's key of the page {@code limit}
     * events newer, when there are that many, and of the next older page.
     */
    public KeyedPage<EventRow, ChainKey> contractLogs(String contractId, int limit, int offset,
                                                      @Nullable ChainKey cursor) {
        long[] tip = order.logTip(contractId);
        long total = tip[0];
        long newest = tip[1];
        long start = cursor == null ? newest : order.logPositionAt(contractId, cursor)
                .orElseGet(() -> floor(newest, cursor, p -> order.logKeyAt(contractId, p).orElse(null)));
        long top = start == 0 ? 0 : start - offset;
        if (top < 1) {
            return new KeyedPage<>(List.of(), total, offset, null, null, null);
        }
        List<EventRow> rows = new ArrayList<>();
        List<ChainKey> keys = new ArrayList<>();
        for (ChainOrderStore.PlacedEvent placed : order.logRows(contractId, top, limit + 1)) {
            rows.add(placed.event());
            keys.add(placed.key());
        }
        ChainKey newer = top + limit <= newest ? order.logKeyAt(contractId, top + limit).orElse(null) : null;
        return cut(rows, keys, limit, total, offset, newer);
    }

    /** A principal's pending transactions from the newest at or below {@code cursor}, in the v3 order. */
    public KeyedPage<PendingSummary, MempoolKey> principalMempool(String principal, int limit,
                                                                  @Nullable MempoolKey cursor) {
        MempoolKey at = cursor != null ? cursor : new MempoolKey(Long.MAX_VALUE, "");
        List<PendingSummary> rows = new ArrayList<>();
        List<MempoolKey> keys = new ArrayList<>();
        for (MempoolStore.PlacedPending p : mempool.pendingAtOrBelow(principal, at, limit + 1)) {
            rows.add(new PendingSummary(p.tx(), p.receiptBlockHeight()));
            keys.add(p.key());
        }
        MempoolKey newer = null;
        if (!keys.isEmpty()) {
            List<MempoolKey> above = mempool.pendingAbove(principal, keys.get(0), limit);
            newer = above.isEmpty() ? null : above.get(above.size() - 1);
        }
        return cut(rows, keys, limit, mempool.pendingCount(principal), 0, newer);
    }

    /** A pending transaction and the chain height it arrived at. */
    public record PendingSummary(MempoolTxRow tx, long receiptBlockHeight) {
    }

    /** The first {@code limit} rows; the row after them, when read, names the next page. */
    private static <T, K> KeyedPage<T, K> cut(List<T> rows, List<K> keys, int limit, long total, long offset,
                                              @Nullable K newer) {
        K older = rows.size() > limit ? keys.get(limit) : null;
        return new KeyedPage<>(rows.subList(0, Math.min(limit, rows.size())), total, offset,
                keys.isEmpty() ? null : keys.get(0), older, newer);
    }

    /**
     * The highest position in [1, top] whose row is at or below {@code key} in chain order (positions
     * follow chain order), 0 when there is none: about log2(top) point lookups, whatever the depth.
     */
    static long floor(long top, ChainKey key, LongFunction<ChainKey> keyAt) {
        long lo = 0;
        long hi = top;
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            ChainKey at = keyAt.apply(mid);
            if (at != null && at.compareTo(key) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
