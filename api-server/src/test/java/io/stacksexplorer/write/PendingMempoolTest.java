package io.stacksexplorer.write;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The committed pending ids with their receipt heights: complete or unused, never partly known. */
class PendingMempoolTest {

    @Test
    void followsCommittedChangesOnceLoaded() {
        PendingMempool pending = new PendingMempool();
        assertTrue(pending.wantsLoad());
        assertFalse(pending.known());
        pending.commit(Map.of("0xaa", 5L), Map.of()); // not loaded: nothing to follow
        pending.load(Map.of("0x01", 10L, "0x02", 12L), Map.of());
        assertFalse(pending.wantsLoad());
        assertTrue(pending.known());
        assertEquals(10, pending.oldestReceiptHeight());
        pending.commit(Map.of("0x01", PendingMempool.NOT_PENDING, "0x03", 15L), Map.of());
        assertFalse(pending.isPending("0x01"));
        assertTrue(pending.isPending("0x02"));
        assertTrue(pending.isPending("0x03"));
        assertFalse(pending.isPending("0xaa"));
        assertEquals(12, pending.oldestReceiptHeight());
    }

    @Test
    void findsThePendingReceivedAtOrBelowAHeight() {
        PendingMempool pending = new PendingMempool();
        pending.load(Map.of("0x01", 10L, "0x02", 12L, "0x03", 12L, "0x04", 20L), Map.of());
        assertEquals(List.of(), pending.pendingSinceAtMost(9));
        assertEquals(List.of("0x01"), pending.pendingSinceAtMost(10));
        assertEquals(3, pending.pendingSinceAtMost(12).size());
        // Returned by a reorg: pending again, from a new height.
        pending.commit(Map.of("0x01", 30L), Map.of());
        assertEquals(12, pending.oldestReceiptHeight());
        assertFalse(pending.pendingSinceAtMost(20).contains("0x01"));
        pending.commit(Map.of("0x02", PendingMempool.NOT_PENDING, "0x03", PendingMempool.NOT_PENDING,
                "0x04", PendingMempool.NOT_PENDING, "0x01", PendingMempool.NOT_PENDING), Map.of());
        assertEquals(Long.MAX_VALUE, pending.oldestReceiptHeight());
    }

    @Test
    void tooManyPendingIdsAreLeftToTheDatabase() {
        Map<String, Long> many = new HashMap<>();
        for (int i = 0; i <= PendingMempool.MAX_PENDING; i++) {
            many.put("0x" + i, (long) i);
        }
        PendingMempool loadedTooMany = new PendingMempool();
        loadedTooMany.load(many, Map.of());
        assertFalse(loadedTooMany.known());
        assertFalse(loadedTooMany.wantsLoad(), "not loaded again at every transaction");

        PendingMempool grewTooMany = new PendingMempool();
        grewTooMany.load(Map.of(), Map.of());
        grewTooMany.commit(many, Map.of());
        assertFalse(grewTooMany.known());

        grewTooMany.invalidate();
        assertTrue(grewTooMany.wantsLoad(), "a rebuild empties the mempool: worth loading again");
    }

    @Test
    void findsThePendingByTheNoncesTheySpend() {
        PendingMempool pending = new PendingMempool();
        NonceSlot alice3 = new NonceSlot("SP1ALICE", 3);
        NonceSlot sponsor7 = new NonceSlot("SP2SPONSOR", 7);
        pending.load(Map.of("0x01", 10L, "0x02", 11L),
                Map.of("0x01", List.of(alice3), "0x02", List.of(new NonceSlot("SP3BOB", 3), sponsor7)));
        assertEquals(Set.of("0x01"), pending.pendingIn(alice3));
        assertEquals(Set.of("0x02"), pending.pendingIn(sponsor7), "a sponsored one spends its sponsor's nonce too");
        assertEquals(Set.of(), pending.pendingIn(new NonceSlot("SP1ALICE", 4)));

        pending.commit(Map.of("0x01", PendingMempool.NOT_PENDING, "0x03", 12L), Map.of("0x03", List.of(alice3)));
        assertEquals(Set.of("0x03"), pending.pendingIn(alice3), "mined or dropped: no longer found; new: found");
    }
}
