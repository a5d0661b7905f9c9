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
import io.stacksexplorer.client.model.PrincipalInvolvement;
import io.stacksexplorer.client.model.PrincipalMempoolTransactionPage;
import io.stacksexplorer.client.model.PrincipalTransaction;
import io.stacksexplorer.client.model.PrincipalTransactionPage;
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
import static io.stacksexplorer.conformance.consumer.Bodies.PRINCIPAL;
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
 * history, a malformed address (400); an address's mempool, an empty one, a malformed address (400);
 * the same two lists through the cursor-paged v3 routes (the peer's successors), with their cursors.
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

        AddressTransactionPage page = api.getAddressTransactions(EX_SENDER, 2, null, null, null);
        assertEquals(2, page.getLimit());
        assertFalse(page.getResults().isEmpty());
        AddressTransaction first = page.getResults().get(0);
        assertNotNull(first.getStxSent());
        assertNotNull(first.getEvents().getStx().getTransfer());
        assertTrue(first.getTx().getEvents().isEmpty());
        assertNotNull(page.getNextCursor());

        AddressTransactionPage empty = api.getAddressTransactions(UNUSED_ADDRESS, null, null, null, null);
        assertEquals(0L, empty.getTotal());
        assertTrue(empty.getResults().isEmpty());
        assertNull(empty.getNextCursor());

        assertEquals("address", Clients.problem(assertThrows(ApiException.class,
                () -> api.getAddressTransactions(BAD_CHECKSUM_ADDRESS, null, null, null, null)), 400).getParameter());
        assertEquals("cursor", Clients.problem(assertThrows(ApiException.class,
                () -> api.getAddressTransactions(UNUSED_ADDRESS, null, null, "not-a-cursor", null)), 400).getParameter());
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

    /** A v3 transaction cursor, {@code block_height:microblock_sequence:tx_index}. */
    private static final String TX_CURSOR = "^[0-9]+:[0-9]+:[0-9]+$";
    /** A v3 mempool cursor, {@code receipt_time:tx_id}. */
    private static final String MEMPOOL_CURSOR = "^[0-9]+:0x[0-9a-f]{64}$";

    /** An empty keyset page: no records, and so no cursor at all. */
    private static PactDslJsonBody emptyKeysetPage() {
        return new PactDslJsonBody()
                .numberValue("total", 0)
                .numberValue("limit", 20)
                .object("cursor").nullValue("next").nullValue("previous").nullValue("current").closeObject()
                .array("results").closeArray().asBody();
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getPrincipalTransactions(PactDslWithProvider builder) {
        PactDslJsonBody page = new PactDslJsonBody()
                .integerType("total", 3L)
                .numberValue("limit", 2);
        page.object("cursor")
                .stringMatcher("next", TX_CURSOR, "45:2147483647:3")
                .nullValue("previous")
                .stringMatcher("current", TX_CURSOR, "47:2147483647:5")
                .closeObject();
        PactDslJsonBody record = page.minArrayLike("results", 1);
        PactDslJsonBody tx = record.object("transaction").stringMatcher("tx_id", HASH, EX_TX_ID);
        tx.object("sender").stringMatcher("address", PRINCIPAL, EX_SENDER).integerType("nonce", 0L).closeObject();
        tx.nullValue("sponsor");
        tx.stringMatcher("fee_rate", DECIMAL, "180");
        tx.object("block")
                .integerType("height", 47L)
                .stringMatcher("hash", HASH, Bodies.EX_BLOCK_HASH)
                .stringMatcher("index_hash", HASH, Bodies.EX_INDEX_BLOCK_HASH)
                .integerType("time", 1610686251L)
                .integerType("tx_index", 5)
                .closeObject();
        tx.object("bitcoin_block").integerType("height", 666122L).integerType("time", 1610686251L).closeObject();
        tx.stringMatcher("status", MINED_STATUS, "success")
                .stringMatcher("type", TX_TYPE, "token_transfer");
        tx.closeObject();
        record.stringMatcher("involvement", "^(sender|sponsor|affected)$", "sender");
        record.object("balance_changes").object("stx")
                .stringMatcher("sent", DECIMAL, "6668177779")
                .stringMatcher("received", DECIMAL, "0")
                .stringMatcher("net", "^-?[0-9]+$", "-6668177779")
                .closeObject().closeObject();
        record.object("affected_balances").booleanType("stx", true).booleanType("ft", false).booleanType("nft", false)
                .closeObject();
        record.closeObject().closeArray();

        PactDslResponse pact = Bodies.ok(builder
                        .given("an address has transactions", Map.of("minTransactions", 3))
                        .uponReceiving("getPrincipalTransactions: a principal's newest transaction summaries and cursors")
                        .pathFromProviderState("/extended/v3/principals/${address}/transactions",
                                "/extended/v3/principals/" + EX_SENDER + "/transactions")
                        .method("GET")
                        .query("limit=2"),
                page);
        pact = Bodies.ok(pact
                        .uponReceiving("getPrincipalTransactions: a principal without history is an empty page")
                        .path("/extended/v3/principals/" + UNUSED_ADDRESS + "/transactions")
                        .method("GET"),
                emptyKeysetPage());
        pact = Bodies.problem(pact
                .uponReceiving("getPrincipalTransactions: a principal with a bad checksum is 400")
                .path("/extended/v3/principals/" + BAD_CHECKSUM_ADDRESS + "/transactions")
                .method("GET"), 400, "principal");
        pact = Bodies.problem(pact
                .uponReceiving("getPrincipalTransactions: a cursor not of the form height:sequence:index is 400")
                .path("/extended/v3/principals/" + UNUSED_ADDRESS + "/transactions")
                .method("GET")
                .query("cursor=garbage"), 400, "cursor");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getPrincipalTransactions")
    void getPrincipalTransactions(MockServer mockServer) throws ApiException {
        AddressesApi api = new AddressesApi(Clients.client(mockServer));

        PrincipalTransactionPage page = api.getPrincipalTransactions(EX_SENDER, 2, null);
        assertEquals(2, page.getLimit());
        assertNotNull(page.getCursor().getCurrent());
        assertNotNull(page.getCursor().getNext());
        assertNull(page.getCursor().getPrevious());
        PrincipalTransaction first = page.getResults().get(0);
        assertNotNull(first.getTransaction().getBlock().getHeight());
        assertTrue(first.getInvolvement() == PrincipalInvolvement.SENDER
                || first.getInvolvement() == PrincipalInvolvement.SPONSOR
                || first.getInvolvement() == PrincipalInvolvement.AFFECTED);
        assertNotNull(first.getBalanceChanges().getStx().getNet());

        PrincipalTransactionPage empty = api.getPrincipalTransactions(UNUSED_ADDRESS, null, null);
        assertEquals(0L, empty.getTotal());
        assertNull(empty.getCursor().getCurrent());

        assertEquals("principal", Clients.problem(assertThrows(ApiException.class,
                () -> api.getPrincipalTransactions(BAD_CHECKSUM_ADDRESS, null, null)), 400).getParameter());
        assertEquals("cursor", Clients.problem(assertThrows(ApiException.class,
                () -> api.getPrincipalTransactions(UNUSED_ADDRESS, null, "garbage")), 400).getParameter());
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getPrincipalMempoolTransactions(PactDslWithProvider builder) {
        PactDslJsonBody page = new PactDslJsonBody()
                .integerType("total", 1L)
                .numberValue("limit", 20);
        page.object("cursor")
                .nullValue("next")
                .nullValue("previous")
                .stringMatcher("current", MEMPOOL_CURSOR, "1610674706:" + EX_PENDING_TX_ID)
                .closeObject();
        PactDslJsonBody tx = page.minArrayLike("results", 1).stringMatcher("tx_id", HASH, EX_PENDING_TX_ID);
        tx.object("sender").stringMatcher("address", PRINCIPAL, EX_SENDER).integerType("nonce", 3L).closeObject();
        tx.nullValue("sponsor");
        tx.stringMatcher("fee_rate", DECIMAL, "180")
                .integerType("receipt_time", 1610674706L)
                .integerType("receipt_block_height", 47L)
                .stringValue("status", "pending")
                .stringMatcher("type", TX_TYPE, "token_transfer");
        tx.closeObject().closeArray();

        PactDslResponse pact = Bodies.ok(builder
                        .given("an address has pending transactions", Map.of())
                        .uponReceiving("getPrincipalMempoolTransactions: a principal's pending transaction summaries")
                        .pathFromProviderState("/extended/v3/principals/${address}/mempool/transactions",
                                "/extended/v3/principals/" + EX_SENDER + "/mempool/transactions")
                        .method("GET"),
                page);
        pact = Bodies.ok(pact
                        .uponReceiving("getPrincipalMempoolTransactions: a principal with nothing pending is an empty page")
                        .path("/extended/v3/principals/" + UNUSED_ADDRESS + "/mempool/transactions")
                        .method("GET"),
                emptyKeysetPage());
        pact = Bodies.problem(pact
                .uponReceiving("getPrincipalMempoolTransactions: a cursor not of the form time:tx_id is 400")
                .path("/extended/v3/principals/" + UNUSED_ADDRESS + "/mempool/transactions")
                .method("GET")
                .query("cursor=garbage"), 400, "cursor");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getPrincipalMempoolTransactions")
    void getPrincipalMempoolTransactions(MockServer mockServer) throws ApiException {
        AddressesApi api = new AddressesApi(Clients.client(mockServer));

        PrincipalMempoolTransactionPage page = api.getPrincipalMempoolTransactions(EX_SENDER, null, null);
        assertFalse(page.getResults().isEmpty());
        assertEquals(TransactionStatus.PENDING, page.getResults().get(0).getStatus());
        assertEquals(page.getResults().get(0).getReceiptTime() + ":" + page.getResults().get(0).getTxId(),
                page.getCursor().getCurrent());

        assertTrue(api.getPrincipalMempoolTransactions(UNUSED_ADDRESS, null, null).getResults().isEmpty());

        assertEquals("cursor", Clients.problem(assertThrows(ApiException.class,
                () -> api.getPrincipalMempoolTransactions(UNUSED_ADDRESS, null, "garbage")), 400).getParameter());
    }
}
