package io.stacksexplorer.conformance.consumer;

import au.com.dius.pact.consumer.MockServer;
import au.com.dius.pact.consumer.dsl.PactDslJsonBody;
import au.com.dius.pact.consumer.dsl.PactDslResponse;
import au.com.dius.pact.consumer.dsl.PactDslWithProvider;
import au.com.dius.pact.consumer.junit5.PactConsumerTestExt;
import au.com.dius.pact.consumer.junit5.PactTestFor;
import au.com.dius.pact.core.model.PactSpecVersion;
import au.com.dius.pact.core.model.V4Pact;
import au.com.dius.pact.core.model.annotations.Pact;
import io.stacksexplorer.client.ApiException;
import io.stacksexplorer.client.api.BlocksApi;
import io.stacksexplorer.client.model.Block;
import io.stacksexplorer.client.model.Problem;
import io.stacksexplorer.conformance.Contract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static io.stacksexplorer.conformance.consumer.Bodies.EX_BLOCK_HASH;
import static io.stacksexplorer.conformance.consumer.Bodies.EX_INDEX_BLOCK_HASH;
import static io.stacksexplorer.conformance.consumer.Bodies.HASH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tag Blocks: getBlock by height, hash, index block hash and latest; unknown (404) and malformed (400). */
@ExtendWith(PactConsumerTestExt.class)
@PactTestFor(providerName = Contract.PROVIDER, pactVersion = PactSpecVersion.V4)
class BlocksPactTest {

    private static final Map<String, Object> BLOCK_3 = Map.of("height", 3);

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getBlock(PactDslWithProvider builder) {
        PactDslResponse pact = Bodies.ok(builder
                        .given("a block exists", BLOCK_3)
                        .uponReceiving("getBlock: a block by height")
                        .pathFromProviderState("/extended/v2/blocks/${height}", "/extended/v2/blocks/3")
                        .method("GET"),
                Bodies.blockFields(new PactDslJsonBody()
                        .valueFromProviderState("height", "${height}", 3L)
                        .stringMatcher("hash", HASH, EX_BLOCK_HASH)
                        .stringMatcher("index_block_hash", HASH, EX_INDEX_BLOCK_HASH)));
        pact = Bodies.ok(pact
                        .given("a block exists", BLOCK_3)
                        .uponReceiving("getBlock: a block by hash")
                        .pathFromProviderState("/extended/v2/blocks/${hash}", "/extended/v2/blocks/" + EX_BLOCK_HASH)
                        .method("GET"),
                Bodies.blockFields(new PactDslJsonBody()
                        .integerType("height", 3L)
                        .valueFromProviderState("hash", "${hash}", EX_BLOCK_HASH)
                        .stringMatcher("index_block_hash", HASH, EX_INDEX_BLOCK_HASH)));
        pact = Bodies.ok(pact
                        .given("a block exists", BLOCK_3)
                        .uponReceiving("getBlock: a block by index block hash")
                        .pathFromProviderState("/extended/v2/blocks/${indexBlockHash}",
                                "/extended/v2/blocks/" + EX_INDEX_BLOCK_HASH)
                        .method("GET"),
                Bodies.blockFields(new PactDslJsonBody()
                        .integerType("height", 3L)
                        .stringMatcher("hash", HASH, EX_BLOCK_HASH)
                        .valueFromProviderState("index_block_hash", "${indexBlockHash}", EX_INDEX_BLOCK_HASH)));
        pact = Bodies.ok(pact
                        .given("a block exists", BLOCK_3)
                        .uponReceiving("getBlock: the latest block")
                        .path("/extended/v2/blocks/latest")
                        .method("GET"),
                Bodies.anyBlock());
        pact = Bodies.problem(pact
                .uponReceiving("getBlock: an unknown height is 404")
                .path("/extended/v2/blocks/999999999")
                .method("GET"), 404, null);
        pact = Bodies.problem(pact
                .uponReceiving("getBlock: a malformed height or hash is 400")
                .path("/extended/v2/blocks/not-a-block")
                .method("GET"), 400, "height_or_hash");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getBlock")
    void getBlock(MockServer mockServer) throws ApiException {
        BlocksApi api = new BlocksApi(Clients.client(mockServer));

        Block byHeight = api.getBlock("3");
        assertEquals(3L, byHeight.getHeight());
        assertTrue(byHeight.getCanonical());

        assertEquals(EX_BLOCK_HASH, api.getBlock(EX_BLOCK_HASH).getHash());
        assertEquals(EX_INDEX_BLOCK_HASH, api.getBlock(EX_INDEX_BLOCK_HASH).getIndexBlockHash());

        Block latest = api.getBlock("latest");
        assertNotNull(latest.getHeight());
        assertNotNull(latest.getBlockTimeIso());

        ApiException unknown = assertThrows(ApiException.class, () -> api.getBlock("999999999"));
        Clients.problem(unknown, 404);

        ApiException malformed = assertThrows(ApiException.class, () -> api.getBlock("not-a-block"));
        Problem problem = Clients.problem(malformed, 400);
        assertEquals("height_or_hash", problem.getParameter());
    }
}
