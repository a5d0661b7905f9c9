package io.stacksexplorer.write;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The committed pending ids: complete or unused, never partly known. */
class PendingMempoolTest {

    @Test
    void followsCommittedChangesOnceLoaded() {
        PendingMempool pending = new PendingMempool();
        assertTrue(pending.wantsLoad());
        assertFalse(pending.known());
        pending.commit(Map.of("0xaa", true)); // not loaded: nothing to follow
        pending.load(Set.of("0x01", "0x02"));
        assertFalse(pending.wantsLoad());
        assertTrue(pending.known());
        pending.commit(Map.of("0x01", false, "0x03", true));
        assertFalse(pending.isPending("0x01"));
        assertTrue(pending.isPending("0x02"));
        assertTrue(pending.isPending("0x03"));
        assertFalse(pending.isPending("0xaa"));
    }

    @Test
    void tooManyPendingIdsAreLeftToTheDatabase() {
        Set<String> many = new HashSet<>();
        for (int i = 0; i <= PendingMempool.MAX_PENDING; i++) {
            many.add("0x" + i);
        }
        PendingMempool loadedTooMany = new PendingMempool();
        loadedTooMany.load(many);
        assertFalse(loadedTooMany.known());
        assertFalse(loadedTooMany.wantsLoad(), "not loaded again at every transaction");

        PendingMempool grewTooMany = new PendingMempool();
        grewTooMany.load(Set.of());
        Map<String, Boolean> added = new java.util.HashMap<>();
        many.forEach(id -> added.put(id, true));
        grewTooMany.commit(added);
        assertFalse(grewTooMany.known());

        grewTooMany.invalidate();
        assertTrue(grewTooMany.wantsLoad(), "a rebuild empties the mempool: worth loading again");
    }
}
