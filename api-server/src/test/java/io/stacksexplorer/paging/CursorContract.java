package io.stacksexplorer.paging;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.http.ApiServer;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewMicroblocks;
import io.stacksexplorer.write.NewTransaction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cursors on both position-numbered lists over HTTP: without new blocks a walk by cursor returns
 * exactly the offset pages; a walk neither skips nor repeats when new blocks (with a confirmed
 * microblock stream) or a short reorg of the tip land between two pages; bad cursors are a 400.
 */
public abstract class CursorContract {

    protected abstract TestDatabase database();

    private static final DemoChain DEMO = DemoChain.generate(DemoChain.DEFAULT_SEED);

    private static String addressPath() {
        return "/extended/v2/addresses/" + DEMO.summary().hotAddresses().get(0) + "/transactions";
    }

    private static String eventsPath() {
        return "/extended/v1/contract/" + DEMO.summary().contractIdWithLogs() + "/events";
    }

    @Test
    void cursorWalkEqualsOffsetPagesAndIsStableUnderNewBlocks() {
        List<NewBlock> blocks = DEMO.blocks();
        try (ApiServer api = ApiServer.start(database())) {
            // The last block that confirms a microblock stream (2.x era), and the blocks before it.
            int confirming = blocks.size() - 1;
            while (blocks.get(confirming).transactions().stream().noneMatch(NewTransaction::inMicroblock)) {
                confirming--;
            }
            for (NewBlock block : blocks.subList(0, confirming - 1)) {
                api.writer().writeBlock(block);
            }
            for (String path : List.of(addressPath(), eventsPath())) {
                List<List<String>> byOffset = offsetPages(api, path, 7);
                assertTrue(byOffset.size() >= 3, path + " needs a few pages, has " + byOffset.size());
                assertEquals(byOffset, cursorPages(api, path, 7), path + ": cursor walk = offset pages");
            }

            // Page 1, then new blocks (one confirming a microblock stream served unanchored first).
            List<List<String>> addressBefore = offsetPages(api, addressPath(), 7);
            List<List<String>> eventsBefore = offsetPages(api, eventsPath(), 7);
            JsonNode addressPage1 = api.get(addressPath() + "?limit=7").body();
            JsonNode eventsPage1 = api.get(eventsPath() + "?limit=7").body();
            NewBlock b44 = blocks.get(confirming - 1);
            NewBlock b45 = blocks.get(confirming);
            List<NewTransaction> stream = b45.transactions().stream().filter(NewTransaction::inMicroblock).toList();
            assertFalse(stream.isEmpty(), "block " + b45.height() + " confirms a microblock stream");
            api.writer().writeBlock(b44);
            api.writer().writeMicroblocks(new NewMicroblocks(b44.indexBlockHash(), b45.parentBurnBlockTime(),
                    b45.blockTime() - 30, stream), null);
            JsonNode addressShifted = api.get(addressPath() + "?limit=7&offset=7").body();
            api.writer().writeBlock(b45);
            api.writer().writeBlock(blocks.get(confirming + 1));

            JsonNode addressPage2 = api.get(addressPath() + "?limit=7&cursor="
                    + addressPage1.get("next_cursor").asText()).body();
            assertEquals(addressBefore.get(1), ids(addressPage2), "page 2 by cursor = page 2 before the new blocks");
            assertNotEquals(addressBefore.get(1), ids(addressShifted), "by offset the page shifted");
            assertTrue(addressPage2.get("offset").asInt() > 7, "offset tells how many records now precede");
            JsonNode eventsPage2 = api.get(eventsPath() + "?limit=7&cursor="
                    + eventsPage1.get("next_cursor").asText()).body();
            assertEquals(eventsBefore.get(1), ids(eventsPage2));
            // …and the walk goes on to the end with the old pages.
            JsonNode page3 = api.get(addressPath() + "?limit=7&cursor=" + addressPage2.get("next_cursor").asText())
                    .body();
            assertEquals(addressBefore.get(2), ids(page3));
            // A page names itself and the page before it, both pinned like next_cursor.
            assertTrue(addressPage1.get("prev_cursor").isNull(), "nothing before the first page");
            assertEquals(addressBefore.get(1), ids(api.get(addressPath() + "?limit=7&cursor="
                    + addressPage2.get("cursor").asText()).body()), "cursor: this page again");
            assertEquals(addressBefore.get(0), ids(api.get(addressPath() + "?limit=7&cursor="
                    + addressPage2.get("prev_cursor").asText()).body()), "prev_cursor: the page before, as it was");
            assertEquals(addressBefore.get(1), ids(api.get(addressPath() + "?limit=7&cursor="
                    + page3.get("prev_cursor").asText()).body()), "and from page 3, page 2");
        }
    }

    @Test
    void cursorWalkIsStableAcrossAReorgOfTheTip() {
        List<NewBlock> blocks = DEMO.blocks();
        try (ApiServer api = ApiServer.start(database())) {
            for (NewBlock block : blocks.subList(0, 40)) {
                api.writer().writeBlock(block);
            }
            List<List<String>> before = offsetPages(api, addressPath(), 5);
            JsonNode page1 = api.get(addressPath() + "?limit=5").body();
            // A fork replaces block 40 (without its last transaction) and grows longer.
            NewBlock b40 = blocks.get(39);
            NewBlock fork40 = new NewBlock("0x" + "f4".repeat(32), "0x" + "e4".repeat(32), b40.height(),
                    b40.parentBlockHash(), b40.parentIndexBlockHash(), b40.parentMicroblockHash(),
                    b40.parentMicroblockSequence(), b40.blockTime(), b40.burnBlockTime(), b40.burnBlockHash(),
                    b40.burnBlockHeight(), b40.parentBurnBlockTime(), b40.minerTxid(),
                    b40.transactions().subList(0, b40.transactions().size() - 1));
            NewBlock b41 = blocks.get(40);
            NewBlock fork41 = new NewBlock("0x" + "f5".repeat(32), "0x" + "e5".repeat(32), b41.height(),
                    fork40.blockHash(), fork40.indexBlockHash(), "0x" + "00".repeat(32), 0, b41.blockTime(),
                    b41.burnBlockTime(), b41.burnBlockHash(), b41.burnBlockHeight(), b41.parentBurnBlockTime(),
                    b41.minerTxid(), List.of(b41.transactions().get(0)));
            api.writer().writeBlock(fork40);
            assertTrue(api.writer().writeBlock(fork41).reorg());
            JsonNode page2 = api.get(addressPath() + "?limit=5&cursor=" + page1.get("next_cursor").asText()).body();
            // The dropped transaction is block 40's newest, so it was on page 1 if anywhere; the rows
            // below page 1's last one (followed by its transaction id into the fork) are unchanged.
            assertEquals(before.get(1), ids(page2));
        }
    }

    @Test
    void badAndForeignCursorsAreA400() {
        try (ApiServer api = ApiServer.start(database())) {
            for (NewBlock block : DEMO.blocks().subList(0, 20)) {
                api.writer().writeBlock(block);
            }
            String addressCursor = api.get(addressPath() + "?limit=2").body().get("next_cursor").asText();
            String eventsCursor = api.get(eventsPath() + "?limit=1").body().get("next_cursor").asText();
            String other = "/extended/v2/addresses/" + DEMO.summary().hotAddresses().get(1) + "/transactions";
            assertProblem(api.get(other + "?cursor=" + addressCursor), "cursor");
            assertProblem(api.get(addressPath() + "?cursor=" + eventsCursor), "cursor");
            assertProblem(api.get(addressPath() + "?cursor=not-a-cursor"), "cursor");
            assertProblem(api.get(addressPath() + "?cursor=" + addressCursor.substring(1)), "cursor");
            assertProblem(api.get(eventsPath() + "?cursor=" + addressCursor), "cursor");
            assertProblem(api.get(addressPath() + "?offset=3&cursor=" + addressCursor), "offset");
            assertEquals(200, api.get(addressPath() + "?offset=0&cursor=" + addressCursor).status());
        }
    }

    private static void assertProblem(ApiServer.Answer answer, String parameter) {
        assertEquals(400, answer.status(), answer.rawBody());
        assertEquals(parameter, answer.body().get("parameter").asText(), answer.rawBody());
    }

    private static List<List<String>> offsetPages(ApiServer api, String path, int limit) {
        List<List<String>> pages = new ArrayList<>();
        for (int offset = 0; ; offset += limit) {
            JsonNode page = api.get(path + "?limit=" + limit + "&offset=" + offset).body();
            List<String> ids = ids(page);
            if (ids.isEmpty()) {
                return pages;
            }
            pages.add(ids);
        }
    }

    private static List<List<String>> cursorPages(ApiServer api, String path, int limit) {
        List<List<String>> pages = new ArrayList<>();
        JsonNode page = api.get(path + "?limit=" + limit).body();
        while (true) {
            pages.add(ids(page));
            if (page.get("next_cursor").isNull()) {
                return pages;
            }
            page = api.get(path + "?limit=" + limit + "&cursor=" + page.get("next_cursor").asText()).body();
        }
    }

    /** Row identities of a page: tx id (address records) or tx id and event index (events). */
    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        for (JsonNode row : page.get("results")) {
            ids.add(row.has("tx") ? row.at("/tx/tx_id").asText() : row.get("tx_id").asText() + "#" + row.get("event_index").asText());
        }
        return ids;
    }
}
