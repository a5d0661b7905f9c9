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
import io.stacksexplorer.client.api.TransactionsApi;
import io.stacksexplorer.client.model.Transaction;
import io.stacksexplorer.client.model.TransactionLookupEntry;
import io.stacksexplorer.client.model.TransactionStatus;
import io.stacksexplorer.client.model.TransactionType;
import io.stacksexplorer.conformance.Contract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static io.stacksexplorer.conformance.consumer.Bodies.EX_PENDING_TX_ID;
import static io.stacksexplorer.conformance.consumer.Bodies.EX_TX_ID;
import static io.stacksexplorer.conformance.consumer.Bodies.HASH;
import static io.stacksexplorer.conformance.consumer.Bodies.ISO_TIME;
import static io.stacksexplorer.conformance.consumer.Bodies.MINED_STATUS;
import static io.stacksexplorer.conformance.consumer.Bodies.MISSING_TX_1;
import static io.stacksexplorer.conformance.consumer.Bodies.MISSING_TX_2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tag Transactions: getTransactionsByIds for a confirmed and a pending transaction, the two with a
 * miss in one request, all misses (404) and too many ids (400).
 *
 * <p>Single lookups take their id from the provider state. A repeated query parameter cannot take
 * several different values from a provider state (Pact generates one value per parameter name),
 * so the mixed lookup names its two ids in the state's parameters instead: the provider makes
 * those transactions exist (they are transactions of the generator's demo preset; the pending one
 * is also in README's examples).
 */
@ExtendWith(PactConsumerTestExt.class)
@PactTestFor(providerName = Contract.PROVIDER, pactVersion = PactSpecVersion.V4)
class TransactionsPactTest {

    /** A successful token transfer mined in block 2 of the demo preset's chain (seed 12). */
    static final String FIXTURE_CONFIRMED = "0xf24634b11f4820ac975fbcd45e454455ad69f869a09ff714fb991ce79dae83bc";
    /** A pending token transfer in the demo preset's mempool (README's example of a pending lookup). */
    static final String FIXTURE_PENDING = "0xd157104ef37e4c6d5ab2deb02baecaae424843ec3815ff81acb0896d95eb6fcc";

    private static final Map<String, Object> TOKEN_TRANSFER = Map.of("txType", "token_transfer");

    static PactDslJsonBody confirmedTokenTransfer(PactDslJsonBody tx, boolean txIdFromState, String txId) {
        if (txIdFromState) {
            tx.valueFromProviderState("tx_id", "${txId}", txId);
        } else {
            tx.stringValue("tx_id", txId);
        }
        Bodies.commonFields(tx)
                .stringMatcher("tx_status", MINED_STATUS, "success")
                .stringValue("tx_type", "token_transfer");
        Bodies.confirmedFields(tx);
        Bodies.eventsOf(tx, txId);
        return Bodies.tokenTransferPayload(tx);
    }

    static PactDslJsonBody pendingTokenTransfer(PactDslJsonBody tx, boolean txIdFromState, String txId) {
        if (txIdFromState) {
            tx.valueFromProviderState("tx_id", "${txId}", txId);
        } else {
            tx.stringValue("tx_id", txId);
        }
        Bodies.commonFields(tx)
                .stringValue("tx_status", "pending")
                .stringValue("tx_type", "token_transfer")
                .integerType("receipt_time", 1610674706L)
                .stringMatcher("receipt_time_iso", ISO_TIME, "2021-01-15T01:38:26.000Z");
        return Bodies.tokenTransferPayload(tx);
    }

    static List<String> tooManyIds() {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= 51; i++) {
            ids.add("0x" + HexFormat.of().toHexDigits((long) i).repeat(4));
        }
        return ids;
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getTransactionsByIds(PactDslWithProvider builder) {
        PactDslJsonBody confirmed = new PactDslJsonBody();
        confirmedTokenTransfer(confirmed.eachKeyLike(EX_TX_ID).booleanValue("found", true).object("result"),
                true, EX_TX_ID).closeObject().closeObject();
        PactDslResponse pact = Bodies.ok(builder
                        .given("a confirmed transaction exists", TOKEN_TRANSFER)
                        .uponReceiving("getTransactionsByIds: a confirmed transaction")
                        .path("/extended/v1/tx/multiple")
                        .method("GET")
                        .queryParameterFromProviderState("tx_id", "${txId}", EX_TX_ID),
                confirmed);

        PactDslJsonBody pending = new PactDslJsonBody();
        pendingTokenTransfer(pending.eachKeyLike(EX_PENDING_TX_ID).booleanValue("found", true).object("result"),
                true, EX_PENDING_TX_ID).closeObject().closeObject();
        pact = Bodies.ok(pact
                        .given("a pending transaction exists", TOKEN_TRANSFER)
                        .uponReceiving("getTransactionsByIds: a pending transaction")
                        .path("/extended/v1/tx/multiple")
                        .method("GET")
                        .queryParameterFromProviderState("tx_id", "${txId}", EX_PENDING_TX_ID),
                pending);

        PactDslJsonBody mixed = new PactDslJsonBody();
        confirmedTokenTransfer(mixed.object(FIXTURE_CONFIRMED).booleanValue("found", true).object("result"),
                false, FIXTURE_CONFIRMED).closeObject().closeObject();
        pendingTokenTransfer(mixed.object(FIXTURE_PENDING).booleanValue("found", true).object("result"),
                false, FIXTURE_PENDING).closeObject().closeObject();
        mixed.object(MISSING_TX_1).booleanValue("found", false).closeObject();
        pact = Bodies.ok(pact
                        .given("transactions exist", Map.of("txIds", List.of(FIXTURE_CONFIRMED, FIXTURE_PENDING)))
                        .uponReceiving("getTransactionsByIds: a confirmed, a pending and a missing transaction")
                        .path("/extended/v1/tx/multiple")
                        .method("GET")
                        .query("tx_id=" + FIXTURE_CONFIRMED + "&tx_id=" + FIXTURE_PENDING + "&tx_id=" + MISSING_TX_1),
                mixed);

        pact = Bodies.problem(pact
                .uponReceiving("getTransactionsByIds: no id found is 404")
                .path("/extended/v1/tx/multiple")
                .method("GET")
                .query("tx_id=" + MISSING_TX_1 + "&tx_id=" + MISSING_TX_2), 404, null);
        pact = Bodies.problem(pact
                .uponReceiving("getTransactionsByIds: more than 50 ids is 400")
                .path("/extended/v1/tx/multiple")
                .method("GET")
                .query("tx_id=" + String.join("&tx_id=", tooManyIds())), 400, "tx_id");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getTransactionsByIds")
    void getTransactionsByIds(MockServer mockServer) throws ApiException {
        TransactionsApi api = new TransactionsApi(Clients.client(mockServer));

        Transaction confirmed = api.getTransactionsByIds(List.of(EX_TX_ID), null, null, null).get(EX_TX_ID).getResult();
        assertEquals(EX_TX_ID, confirmed.getTxId());
        assertEquals(TransactionType.TOKEN_TRANSFER, confirmed.getTxType());
        assertNotNull(confirmed.getBlockHash());
        assertNotNull(confirmed.getTokenTransfer().getAmount());
        assertNull(confirmed.getReceiptTime());

        Transaction pending = api.getTransactionsByIds(List.of(EX_PENDING_TX_ID), null, null, null)
                .get(EX_PENDING_TX_ID).getResult();
        assertEquals(TransactionStatus.PENDING, pending.getTxStatus());
        assertNotNull(pending.getReceiptTime());
        assertNull(pending.getBlockHash());

        Map<String, TransactionLookupEntry> mixed = api.getTransactionsByIds(
                List.of(FIXTURE_CONFIRMED, FIXTURE_PENDING, MISSING_TX_1), null, null, null);
        assertEquals(3, mixed.size());
        assertTrue(mixed.get(FIXTURE_CONFIRMED).getFound());
        assertNotNull(mixed.get(FIXTURE_CONFIRMED).getResult().getBlockHeight());
        assertEquals(TransactionStatus.PENDING, mixed.get(FIXTURE_PENDING).getResult().getTxStatus());
        assertFalse(mixed.get(MISSING_TX_1).getFound());
        assertNull(mixed.get(MISSING_TX_1).getResult());

        Clients.problem(assertThrows(ApiException.class,
                () -> api.getTransactionsByIds(List.of(MISSING_TX_1, MISSING_TX_2), null, null, null)), 404);
        assertEquals("tx_id", Clients.problem(assertThrows(ApiException.class,
                () -> api.getTransactionsByIds(tooManyIds(), null, null, null)), 400).getParameter());
    }
}
