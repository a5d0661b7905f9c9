package io.stacksexplorer.web;

import io.micronaut.http.annotation.Controller;
import io.stacksexplorer.query.BlockQueries;
import io.stacksexplorer.query.BlockRow;
import io.stacksexplorer.server.api.BlocksApi;
import io.stacksexplorer.server.model.Block;

import java.util.Optional;

@Controller
class BlocksController implements BlocksApi {

    private final BlockQueries blocks;

    BlocksController(BlockQueries blocks) {
        this.blocks = blocks;
    }

    @Override
    public Block getBlock(String heightOrHash) {
        Optional<BlockRow> block;
        if ("latest".equals(heightOrHash)) {
            block = blocks.latest();
        } else if (heightOrHash.length() < 64) {
            block = blocks.byHeight(Long.parseLong(heightOrHash));
        } else {
            block = blocks.byHash(RequestParams.hash(heightOrHash));
        }
        return block.map(BlocksController::toApi)
                .orElseThrow(() -> ApiProblems.notFound("no canonical block " + heightOrHash));
    }

    static Block toApi(BlockRow b) {
        return new Block(b.canonical(), b.blockHeight(), b.blockHash(), b.blockTime(), ApiTime.instant(b.blockTime()),
                b.servedTenureHeight(), b.indexBlockHash(), b.parentBlockHash(), b.parentIndexBlockHash(), b.burnBlockTime(),
                ApiTime.instant(b.burnBlockTime()), b.burnBlockHash(), b.burnBlockHeight(), b.minerTxid(), b.txCount(),
                b.executionCostReadCount(), b.executionCostReadLength(), b.executionCostRuntime(),
                b.executionCostWriteCount(), b.executionCostWriteLength());
    }
}
