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
import io.stacksexplorer.client.api.AddressesApi;
import io.stacksexplorer.client.model.AddressTransaction;
import io.stacksexplorer.client.model.AddressTransactionPage;
import io.stacksexplorer.client.model.MempoolTransactionPage;
import io.stacksexplorer.client.model.TransactionStatus;
import io.stacksexplorer.conformance.Contract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static io.stacksexplorer.conformance.consumer.Bodies.BAD_CHECKSUM_ADDRESS;
import static io.stacksexplorer.conformance.consumer.Bodies.DECIMAL;
import static io.stacksexplorer.conformance.consumer.Bodies.EX_PENDING_TX_ID;
import static io.stacksexplorer.conformance.consumer.Bodies.EX_SENDER;
import static io.stacksexplorer.conformance.consumer.Bodies.EX_TX_ID;
import static io.stacksexplorer.conformance.consumer.Bodies.HASH;
import static io.stacksexplorer.conformance.consumer.Bodies.ISO_TIME;
import static io.stacksexplorer.conformance.consumer.Bodies.MINED_STATUS;
import static io.stacksexplorer.conformance.consumer.Bodies.TX_TYPE;
import static io.stacksexplorer.conformance.consumer.Bodies.UNUSED_ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tag Addresses: an address's transactions with STX totals and event counts, an address without
 * history, a malformed address (400); an address's mempool, an empty one, a malformed address (400).
 */
@ExtendWith(PactConsumerTestExt.class)
@PactTestFor(providerName = Contract.PROVIDER, pactVersion = PactSpecVersion.V4)
class AddressesPactTest {

    private static PactDslJsonBody counts(PactDslJsonBody events, String kind) {
        return events.object(kind)
                .integerType("transfer", 1)
                .integerType("mint", 0)
                .integerType("burn", 0)
                .closeObject().asBody();
    }

    private static PactDslJsonBody emptyPage() {
        return new PactDslJsonBody()
                .numberValue("limit", 20)
                .numberValue("offset", 0)
                .numberValue("total", 0)
                .array("results").closeArray().asBody();
    }

    /** An empty page of an address's history: no next page, no place of its own, nothing before it. */
    private static PactDslJsonBody emptyCursorPage() {
        return emptyPage().nullValue("next_cursor").nullValue("cursor").nullValue("prev_cursor").asBody();
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getAddressTransactions(PactDslWithProvider builder) {
        PactDslJsonBody page = new PactDslJsonBody()
                .numberValue("limit", 2)
                .numberValue("offset", 0)
                .integerType("total", 2500L)
                .stringMatcher("next_cursor", "[A-Za-z0-9_-]{10,200}", "AQE" + "A".repeat(69))
                .stringMatcher("cursor", "[A-Za-z0-9_-]{10,200}", "AQE" + "A".repeat(69))
                .nullValue("prev_cursor");
        PactDslJsonBody record = page.minArrayLike("results", 1);
        PactDslJsonBody tx = record.object("tx").stringMatcher("tx_id", HASH, EX_TX_ID);
        Bodies.commonFields(tx)
                .stringMatcher("tx_status", MINED_STATUS, "success")
                .stringMatcher("tx_type", TX_TYPE, "token_transfer");
        Bodies.confirmedFields(tx)
                .array("events").closeArray();
        tx.closeObject();
        record.stringMatcher("stx_sent", DECIMAL, "6668177779")
                .stringMatcher("stx_received", DECIMAL, "0");
        PactDslJsonBody events = record.object("events");
        counts(events, "stx");
        counts(events, "ft");
        counts(events, "nft");
        events.closeObject();
        record.closeObject().closeArray();

        PactDslResponse pact = Bodies.ok(builder
                        .given("an address has transactions", Map.of("minTransactions", 2))
                        .uponReceiving("getAddressTransactions: an address's newest transactions with totals and counts")
                        .pathFromProviderState("/extended/v2/addresses/${address}/transactions",
                                "/extended/v2/addresses/" + EX_SENDER + "/transactions")
                        .method("GET")
                        .query("limit=2"),
                page);
        pact = Bodies.ok(pact
                        .uponReceiving("getAddressTransactions: an address without history is an empty page")
                        .path("/extended/v2/addresses/" + UNUSED_ADDRESS + "/transactions")
                        .method("GET"),
                emptyCursorPage());
        pact = Bodies.problem(pact
                .uponReceiving("getAddressTransactions: an address with a bad checksum is 400")
                .path("/extended/v2/addresses/" + BAD_CHECKSUM_ADDRESS + "/transactions")
                .method("GET"), 400, "address");
        pact = Bodies.problem(pact
                .uponReceiving("getAddressTransactions: a cursor that is not a next_cursor is 400")
                .path("/extended/v2/addresses/" + UNUSED_ADDRESS + "/transactions")
                .method("GET")
                .query("cursor=not-a-cursor"), 400, "cursor");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getAddressTransactions")
    void getAddressTransactions(MockServer mockServer) throws ApiException {
        AddressesApi api = new AddressesApi(Clients.client(mockServer));

        AddressTransactionPage page = api.getAddressTransactions(EX_SENDER, 2, null, null);
        assertEquals(2, page.getLimit());
        assertFalse(page.getResults().isEmpty());
        AddressTransaction first = page.getResults().get(0);
        assertNotNull(first.getStxSent());
        assertNotNull(first.getEvents().getStx().getTransfer());
        assertTrue(first.getTx().getEvents().isEmpty());
        assertNotNull(page.getNextCursor());

        AddressTransactionPage empty = api.getAddressTransactions(UNUSED_ADDRESS, null, null, null);
        assertEquals(0L, empty.getTotal());
        assertTrue(empty.getResults().isEmpty());
        assertNull(empty.getNextCursor());

        assertEquals("address", Clients.problem(assertThrows(ApiException.class,
                () -> api.getAddressTransactions(BAD_CHECKSUM_ADDRESS, null, null, null)), 400).getParameter());
        assertEquals("cursor", Clients.problem(assertThrows(ApiException.class,
                () -> api.getAddressTransactions(UNUSED_ADDRESS, null, null, "not-a-cursor")), 400).getParameter());
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getAddressMempoolTransactions(PactDslWithProvider builder) {
        PactDslJsonBody page = new PactDslJsonBody()
                .numberValue("limit", 20)
                .numberValue("offset", 0)
                .integerType("total", 1L);
        PactDslJsonBody tx = page.minArrayLike("results", 1).stringMatcher("tx_id", HASH, EX_PENDING_TX_ID);
        Bodies.commonFields(tx)
                .stringValue("tx_status", "pending")
                .stringMatcher("tx_type", TX_TYPE, "token_transfer")
                .integerType("receipt_time", 1610674706L)
                .stringMatcher("receipt_time_iso", ISO_TIME, "2021-01-15T01:38:26.000Z");
        tx.closeObject().closeArray();

        PactDslResponse pact = Bodies.ok(builder
                        .given("an address has pending transactions", Map.of())
                        .uponReceiving("getAddressMempoolTransactions: an address's pending transactions")
                        .pathFromProviderState("/extended/v1/address/${address}/mempool",
                                "/extended/v1/address/" + EX_SENDER + "/mempool")
                        .method("GET"),
                page);
        pact = Bodies.ok(pact
                        .uponReceiving("getAddressMempoolTransactions: an address with nothing pending is an empty page")
                        .path("/extended/v1/address/" + UNUSED_ADDRESS + "/mempool")
                        .method("GET"),
                emptyPage());
        pact = Bodies.problem(pact
                .uponReceiving("getAddressMempoolTransactions: an address with a bad checksum is 400")
                .path("/extended/v1/address/" + BAD_CHECKSUM_ADDRESS + "/mempool")
                .method("GET"), 400, "address");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getAddressMempoolTransactions")
    void getAddressMempoolTransactions(MockServer mockServer) throws ApiException {
        AddressesApi api = new AddressesApi(Clients.client(mockServer));

        MempoolTransactionPage page = api.getAddressMempoolTransactions(EX_SENDER, null, null, null);
        assertFalse(page.getResults().isEmpty());
        assertEquals(TransactionStatus.PENDING, page.getResults().get(0).getTxStatus());
        assertNotNull(page.getResults().get(0).getReceiptTimeIso());

        assertTrue(api.getAddressMempoolTransactions(UNUSED_ADDRESS, null, null, null).getResults().isEmpty());

        assertEquals("address", Clients.problem(assertThrows(ApiException.class,
                () -> api.getAddressMempoolTransactions(BAD_CHECKSUM_ADDRESS, null, null, null)), 400).getParameter());
    }
}
