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
import io.stacksexplorer.client.api.InfoApi;
import io.stacksexplorer.client.model.ApiStatus;
import io.stacksexplorer.conformance.Contract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static io.stacksexplorer.conformance.consumer.Bodies.EX_BLOCK_HASH;
import static io.stacksexplorer.conformance.consumer.Bodies.EX_INDEX_BLOCK_HASH;
import static io.stacksexplorer.conformance.consumer.Bodies.HASH;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Tag Info: the API status of any server (no provider state: what every deployment must answer)
 * and the status with a chain tip, at both of its paths (getApiStatus at /extended, getApiStatusV1
 * at /extended/v1/status). Neither documents a 4xx answer.
 */
@ExtendWith(PactConsumerTestExt.class)
@PactTestFor(providerName = Contract.PROVIDER, pactVersion = PactSpecVersion.V4)
class InfoPactTest {

    private static PactDslJsonBody status() {
        PactDslJsonBody body = new PactDslJsonBody()
                .stringType("server_version", "stacks-explorer-api v1.0.0")
                .stringType("status", "ready");
        Bodies.nullableInteger(body, "pox_v1_unlock_height");
        Bodies.nullableInteger(body, "pox_v2_unlock_height");
        Bodies.nullableInteger(body, "pox_v3_unlock_height");
        return body;
    }

    private static PactDslJsonBody withTip() {
        PactDslJsonBody withTip = status();
        withTip.object("chain_tip")
                .integerType("block_height", 47L)
                .stringMatcher("block_hash", HASH, EX_BLOCK_HASH)
                .stringMatcher("index_block_hash", HASH, EX_INDEX_BLOCK_HASH)
                .integerType("burn_block_height", 666122L)
                .closeObject();
        return withTip;
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getApiStatus(PactDslWithProvider builder) {
        PactDslResponse pact = Bodies.ok(builder
                        .uponReceiving("getApiStatus: the API status")
                        .path("/extended")
                        .method("GET"),
                status());
        pact = Bodies.ok(pact
                        .given("a block exists", Map.of("height", 3))
                        .uponReceiving("getApiStatus: the status with a chain tip")
                        .path("/extended")
                        .method("GET"),
                withTip());
        return pact.toPact(V4Pact.class);
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getApiStatusV1(PactDslWithProvider builder) {
        PactDslResponse pact = Bodies.ok(builder
                        .uponReceiving("getApiStatusV1: the API status at the v1 path")
                        .path("/extended/v1/status")
                        .method("GET"),
                status());
        pact = Bodies.ok(pact
                        .given("a block exists", Map.of("height", 3))
                        .uponReceiving("getApiStatusV1: the status with a chain tip at the v1 path")
                        .path("/extended/v1/status")
                        .method("GET"),
                withTip());
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getApiStatus")
    void getApiStatus(MockServer mockServer) throws ApiException {
        InfoApi api = new InfoApi(Clients.client(mockServer));
        ApiStatus any = api.getApiStatus();
        assertNotNull(any.getServerVersion());
        ApiStatus withTip = api.getApiStatus();
        assertNotNull(withTip.getServerVersion());
    }

    @Test
    @PactTestFor(pactMethod = "getApiStatusV1")
    void getApiStatusV1(MockServer mockServer) throws ApiException {
        InfoApi api = new InfoApi(Clients.client(mockServer));
        ApiStatus any = api.getApiStatusV1();
        assertNotNull(any.getServerVersion());
        ApiStatus withTip = api.getApiStatusV1();
        assertNotNull(withTip.getServerVersion());
    }
}
