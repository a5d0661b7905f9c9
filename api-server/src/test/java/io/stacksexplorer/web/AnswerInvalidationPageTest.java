package io.stacksexplorer.web;

import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.ingest.TsvReplay;
import io.stacksexplorer.web.KeptAnswers.Dependency;
import io.stacksexplorer.web.KeptAnswers.Kind;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Which changes one page of the change log holds decides what {@link AnswerInvalidation} must work out
 * from it; a follower (a {@code readonly} server on a standby, or any server that woke late) reads
 * whatever the writer committed meanwhile in one page. This test chooses the pages by committing
 * between two {@link AnswerInvalidation#follow} calls on an instance whose thread never starts.
 *
 * <p>The case: blocks and a rebuild mark in one page. The mark drops every kept answer, and the page's
 * blocks must still move the highest block seen; otherwise a block that later comes at one of their
 * heights (a fork) is not taken for a reorg, and a block by height kept after the mark survives it.
 * The demo chain's fork supplies the blocks: the first block at a height the chain already had (the
 * other branch's first), and the blocks of the branch it forks from at that height and above.
 */
class AnswerInvalidationPageTest {

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void blocksBeforeARebuildMarkInOnePageStillCountAsSeen(TestDatabase database) throws Exception {
        try (DemoLogFollower demo = new DemoLogFollower(database)) {
            KeptAnswers kept = demo.kept;
            AnswerInvalidation invalidation = demo.invalidation;
            // Each line's block height (-1: not a block), parsed once.
            long[] heights = demo.log.stream().mapToLong(line -> {
                NewBlock block = TsvReplay.delivery(line).block();
                return block == null ? -1 : block.height();
            }).toArray();
            int otherBranch = firstBlockAtASeenHeight(heights);
            long forkHeight = heights[otherBranch];
            int orphanedFrom = firstBlockAt(heights, forkHeight);
            demo.ingest(0, orphanedFrom);
            // Starts from the chain as it is: the highest block seen is the tip, below the fork.
            invalidation.follow();

            // One page: the orphaned branch's blocks, what came between, and a rebuild mark.
            demo.ingest(orphanedFrom, otherBranch);
            demo.context.getBean(ChainWriter.class).rederiving(() -> { });
            invalidation.follow();

            // Kept after that page: the block at the fork's height as the chain has it now.
            String byHeight = "/extended/v2/blocks/" + forkHeight;
            kept.keep(byHeight, kept.sequence(), List.of(Dependency.of(Kind.REORG)),
                    new HttpCaching.Rendered(("{\"height\":" + forkHeight + "}").getBytes(StandardCharsets.UTF_8)));
            assertNotNull(kept.get(byHeight));

            // The other branch, up to the block that makes it the longer one: the reorg. The change log holds
            // no block at the heights this follower saw before the mark, only the new branch's, at those
            // heights and above.
            int takesOver = firstBlockAt(heights, highestBefore(heights, otherBranch) + 1);
            demo.ingest(otherBranch, takesOver + 1);
            invalidation.follow();
            assertNull(kept.get(byHeight), "a block at a height seen before drops the blocks kept by height");
        }
    }

    /** The line of the first block at a height some block before it had: the demo chain's fork. */
    private static int firstBlockAtASeenHeight(long[] heights) {
        long highest = -1;
        for (int line = 0; line < heights.length; line++) {
            if (heights[line] >= 0) {
                if (heights[line] <= highest) {
                    return line;
                }
                highest = heights[line];
            }
        }
        throw new AssertionError("the demo log has no fork");
    }

    /** The line of the first block at {@code height}. */
    private static int firstBlockAt(long[] heights, long height) {
        for (int line = 0; line < heights.length; line++) {
            if (heights[line] == height) {
                return line;
            }
        }
        throw new AssertionError("no block at " + height);
    }

    /** The highest block before line {@code end}. */
    private static long highestBefore(long[] heights, int end) {
        long highest = -1;
        for (int line = 0; line < end; line++) {
            highest = Math.max(highest, heights[line]);
        }
        return highest;
    }
}
