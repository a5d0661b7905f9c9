package io.stacksexplorer.web;

import io.stacksexplorer.web.KeptAnswers.Dependency;
import io.stacksexplorer.web.KeptAnswers.Kind;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of {@link KeptAnswers}: what a change drops, and what a request in flight may keep. */
class KeptAnswersTest {

    private static final Dependency ALICE = new Dependency(Kind.PRINCIPAL, "SP1ALICE");
    private static final Dependency BOB = new Dependency(Kind.PRINCIPAL, "SP1BOB");
    private static final Dependency TX = new Dependency(Kind.TX, "0x01");

    private final KeptAnswers kept = new KeptAnswers(1 << 20);

    private static HttpCaching.Rendered answer(String body) {
        return new HttpCaching.Rendered(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aChangeDropsOnlyTheAnswersMadeFromIt() {
        long readAt = kept.sequence();
        kept.keep("/alice", readAt, List.of(ALICE), answer("a"));
        kept.keep("/bob", readAt, List.of(BOB), answer("b"));
        kept.keep("/both", readAt, List.of(ALICE, TX), answer("ab"));
        kept.changed(List.of(TX));
        assertNotNull(kept.get("/alice"));
        assertNotNull(kept.get("/bob"));
        assertNull(kept.get("/both"));
        kept.changed(List.of(ALICE));
        assertNull(kept.get("/alice"));
        assertNotNull(kept.get("/bob"));
    }

    @Test
    void anAnswerReadAcrossAChangeOfItsInputsIsNotKept() {
        long readAt = kept.sequence();
        kept.changed(List.of(ALICE));
        kept.keep("/alice", readAt, List.of(ALICE), answer("maybe before the change"));
        assertNull(kept.get("/alice"));
        // Another input's change does not matter; a request that came in after the change is kept.
        kept.changed(List.of(BOB));
        kept.keep("/alice", kept.sequence(), List.of(ALICE), answer("after"));
        assertNotNull(kept.get("/alice"));
        kept.keep("/tx", readAt, List.of(TX), answer("unrelated change in flight"));
        assertNotNull(kept.get("/tx"));
    }

    @Test
    void pagePartsFollowTheSameRulesUnderTheirOwnKeys() {
        Dependency positions = Dependency.of(Kind.POSITIONS);
        long readAt = kept.sequence();
        kept.keepPart("count alice", readAt, List.of(ALICE), 42L, 64);
        kept.keepPart("slice alice 40 3", readAt, List.of(positions), "rows 38-40", 100);
        kept.keep("/alice", readAt, List.of(ALICE), answer("a"));
        // A part is no answer, and no request line reaches a part.
        assertNull(kept.get("count alice"));
        assertNull(kept.part("/alice"));
        assertEquals(42L, kept.part("count alice"));
        // Alice's new transaction: her count and page go, her rows stay where they were.
        kept.changed(List.of(ALICE));
        assertNull(kept.part("count alice"));
        assertNull(kept.get("/alice"));
        assertEquals("rows 38-40", kept.part("slice alice 40 3"));
        // A reorg moves positions: the rows go, a count read since stays.
        kept.keepPart("count alice", kept.sequence(), List.of(ALICE), 43L, 64);
        kept.changed(List.of(positions));
        assertNull(kept.part("slice alice 40 3"));
        assertEquals(43L, kept.part("count alice"));
        // Rows read across a move of positions are not kept.
        long before = kept.sequence();
        kept.changed(List.of(positions));
        kept.keepPart("slice alice 41 3", before, List.of(positions), "maybe before the move", 100);
        assertNull(kept.part("slice alice 41 3"));
    }

    @Test
    void aWholeKindOrEverything() {
        long readAt = kept.sequence();
        kept.keep("/alice", readAt, List.of(ALICE), answer("a"));
        kept.keep("/tx", readAt, List.of(TX), answer("t"));
        kept.changedAll(Kind.PRINCIPAL);
        assertNull(kept.get("/alice"));
        assertNotNull(kept.get("/tx"));
        assertTrue(!kept.anyKept(Kind.PRINCIPAL) && kept.anyKept(Kind.TX));
        kept.keep("/bob", readAt, List.of(BOB), answer("read before the kind changed"));
        assertNull(kept.get("/bob"));
        kept.changedEverything();
        assertNull(kept.get("/tx"));
        kept.keep("/tx", readAt, List.of(TX), answer("read before everything changed"));
        assertNull(kept.get("/tx"));
    }

    @Test
    void forgettingOldChangesRefusesRequestsFromBeforeThem() {
        long readAt = kept.sequence();
        List<Dependency> many = new ArrayList<>();
        for (int i = 0; i <= KeptAnswers.REMEMBERED; i++) {
            many.add(new Dependency(Kind.TX, "0x" + i));
        }
        kept.changed(many);
        kept.changed(List.of(BOB));
        // ALICE never changed, but the record of changes since readAt is gone: not kept.
        kept.keep("/alice", readAt, List.of(ALICE), answer("a"));
        assertNull(kept.get("/alice"));
        kept.keep("/alice", kept.sequence(), List.of(ALICE), answer("a"));
        assertNotNull(kept.get("/alice"));
    }

    @Test
    void concurrentChangesNeverLeaveAnAnswerReadBeforeThem() throws Exception {
        // Keepers keep answers read before changes that the changer makes at the same time: whatever
        // the interleaving, an answer whose readAt precedes a change of its input is gone at the end.
        for (int round = 0; round < 200; round++) {
            KeptAnswers k = new KeptAnswers(1 << 20);
            long readAt = k.sequence();
            Thread changer = new Thread(() -> k.changed(List.of(ALICE)));
            changer.start();
            k.keep("/alice", readAt, List.of(ALICE), answer("a"));
            changer.join();
            assertNull(k.get("/alice"), "round " + round);
        }
    }
}
