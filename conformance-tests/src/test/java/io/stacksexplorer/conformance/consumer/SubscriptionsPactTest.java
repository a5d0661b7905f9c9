package io.stacksexplorer.conformance.consumer;

import au.com.dius.pact.consumer.MockServer;
import au.com.dius.pact.consumer.dsl.PactDslWithProvider;
import au.com.dius.pact.consumer.junit5.PactConsumerTestExt;
import au.com.dius.pact.consumer.junit5.PactTestFor;
import au.com.dius.pact.core.model.PactSpecVersion;
import au.com.dius.pact.core.model.V4Pact;
import au.com.dius.pact.core.model.annotations.Pact;
import io.stacksexplorer.client.ApiException;
import io.stacksexplorer.client.api.SubscriptionsApi;
import io.stacksexplorer.client.model.Problem;
import io.stacksexplorer.conformance.Contract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Tag Subscriptions: the event stream's documented 400 and 410. Its 200 is an endless text/event-stream,
 * which a request/response pact cannot hold (provider verification waits for a whole body); the
 * stream itself is verified against the real server by api-server's SubscriptionsContract and
 * CrossOriginBrowserTest (PactsConformToSpecTest exempts it from the success interaction).
 */
@ExtendWith(PactConsumerTestExt.class)
@PactTestFor(providerName = Contract.PROVIDER, pactVersion = PactSpecVersion.V4)
class SubscriptionsPactTest {

    @Pact(consumer = Contract.CONSUMER)
    V4Pact streamNotifications(PactDslWithProvider builder) {
        return Bodies.problem(builder
                        .uponReceiving("streamNotifications: a malformed transaction id")
                        .path("/extended/v1/stream")
                        .query("tx_id=0x12")
                        .method("GET"),
                400, "tx_id").toPact(V4Pact.class);
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact streamNotificationsPruned(PactDslWithProvider builder) {
        return Bodies.problem(builder
                        .given("the change log was pruned")
                        .uponReceiving("streamNotifications: a position older than the change log keeps")
                        .path("/extended/v1/stream")
                        .query("event=block&last_event_id=0")
                        .method("GET"),
                410, "last_event_id").toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "streamNotificationsPruned")
    void streamNotificationsPruned(MockServer mockServer) {
        SubscriptionsApi api = new SubscriptionsApi(Clients.client(mockServer));
        ApiException gone = assertThrows(ApiException.class,
                () -> api.streamNotifications(List.of("block"), null, null, "0"));
        Problem problem = Clients.problem(gone, 410);
        assertEquals("last_event_id", problem.getParameter());
    }

    @Test
    @PactTestFor(pactMethod = "streamNotifications")
    void streamNotifications(MockServer mockServer) {
        SubscriptionsApi api = new SubscriptionsApi(Clients.client(mockServer));
        ApiException malformed = assertThrows(ApiException.class,
                () -> api.streamNotifications(null, List.of("0x12"), null, null));
        Problem problem = Clients.problem(malformed, 400);
        assertEquals("tx_id", problem.getParameter());
    }
}
