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
import io.stacksexplorer.client.api.SmartContractsApi;
import io.stacksexplorer.client.model.ContractDeploymentStatus;
import io.stacksexplorer.client.model.ContractEventPage;
import io.stacksexplorer.client.model.ContractLogPage;
import io.stacksexplorer.client.model.ContractStatus;
import io.stacksexplorer.client.model.ContractStatusLookupEntry;
import io.stacksexplorer.client.model.EventType;
import io.stacksexplorer.conformance.Contract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;

import static io.stacksexplorer.conformance.consumer.Bodies.EX_CONTRACT_ID;
import static io.stacksexplorer.conformance.consumer.Bodies.EX_DEPLOY_TX_ID;
import static io.stacksexplorer.conformance.consumer.Bodies.HASH;
import static io.stacksexplorer.conformance.consumer.Bodies.HEX;
import static io.stacksexplorer.conformance.consumer.Bodies.MISSING_CONTRACT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tag SmartContracts: deployment status found, pending, aborted and missing, a malformed contract
 * id (400); contract log events first page, past the end, and a limit too large (400).
 */
@ExtendWith(PactConsumerTestExt.class)
@PactTestFor(providerName = Contract.PROVIDER, pactVersion = PactSpecVersion.V4)
class SmartContractsPactTest {

    /** The pending example contract of spec/openapi.yaml. */
    private static final String EX_PENDING_CONTRACT = "SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v1";
    private static final String EX_ABORTED_CONTRACT = "SP1K1A1PMGW2ZJCNF46NWZWHG8TS1D23EGH1KNK60.vault-v0";
    private static final String BAD_CHECKSUM_CONTRACT = Bodies.BAD_CHECKSUM_ADDRESS + ".demo";

    /** One status entry keyed by the contract id the provider state names. */
    private static PactDslJsonBody statusEntry(String exampleContractId, String status) {
        PactDslJsonBody body = new PactDslJsonBody();
        PactDslJsonBody result = body.eachKeyLike(exampleContractId)
                .booleanValue("found", true)
                .object("result")
                .stringValue("status", status)
                .valueFromProviderState("contract_id", "${contractId}", exampleContractId)
                .valueFromProviderState("tx_id", "${txId}", EX_DEPLOY_TX_ID);
        if (!"pending".equals(status)) {
            result.integerType("block_height", 32L);
        }
        result.closeObject().closeObject();
        return body;
    }

    private static PactDslResponse status(PactDslResponse pact, PactDslWithProvider builder, String state,
                                          String description, String exampleContractId) {
        var given = pact == null
                ? builder.given("a contract deployment exists", Map.of("status", state))
                : pact.given("a contract deployment exists", Map.of("status", state));
        return Bodies.ok(given
                        .uponReceiving(description)
                        .path("/extended/v2/smart-contracts/status")
                        .method("GET")
                        .queryParameterFromProviderState("contract_id", "${contractId}", exampleContractId),
                statusEntry(exampleContractId, state));
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getSmartContractsStatus(PactDslWithProvider builder) {
        PactDslResponse pact = status(null, builder, "success",
                "getSmartContractsStatus: a deployed contract", EX_CONTRACT_ID);
        pact = status(pact, builder, "pending",
                "getSmartContractsStatus: a contract whose deployment is pending", EX_PENDING_CONTRACT);
        pact = status(pact, builder, "abort_by_response",
                "getSmartContractsStatus: a contract whose deployment aborted", EX_ABORTED_CONTRACT);
        pact = Bodies.ok(pact
                        .uponReceiving("getSmartContractsStatus: a contract nobody deployed")
                        .path("/extended/v2/smart-contracts/status")
                        .method("GET")
                        .query("contract_id=" + MISSING_CONTRACT),
                new PactDslJsonBody().object(MISSING_CONTRACT).booleanValue("found", false).closeObject());
        pact = Bodies.problem(pact
                .uponReceiving("getSmartContractsStatus: a contract id with a bad checksum is 400")
                .path("/extended/v2/smart-contracts/status")
                .method("GET")
                .query("contract_id=" + BAD_CHECKSUM_CONTRACT), 400, "contract_id");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getSmartContractsStatus")
    void getSmartContractsStatus(MockServer mockServer) throws ApiException {
        SmartContractsApi api = new SmartContractsApi(Clients.client(mockServer));

        ContractStatus deployed = api.getSmartContractsStatus(List.of(EX_CONTRACT_ID)).get(EX_CONTRACT_ID).getResult();
        assertEquals(ContractDeploymentStatus.SUCCESS, deployed.getStatus());
        assertNotNull(deployed.getBlockHeight());

        ContractStatus pending = api.getSmartContractsStatus(List.of(EX_PENDING_CONTRACT))
                .get(EX_PENDING_CONTRACT).getResult();
        assertEquals(ContractDeploymentStatus.PENDING, pending.getStatus());
        assertNull(pending.getBlockHeight());

        ContractStatus aborted = api.getSmartContractsStatus(List.of(EX_ABORTED_CONTRACT))
                .get(EX_ABORTED_CONTRACT).getResult();
        assertEquals(ContractDeploymentStatus.ABORT_BY_RESPONSE, aborted.getStatus());

        ContractStatusLookupEntry missing = api.getSmartContractsStatus(List.of(MISSING_CONTRACT)).get(MISSING_CONTRACT);
        assertFalse(missing.getFound());
        assertNull(missing.getResult());

        assertEquals("contract_id", Clients.problem(assertThrows(ApiException.class,
                () -> api.getSmartContractsStatus(List.of(BAD_CHECKSUM_CONTRACT))), 400).getParameter());
    }

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getContractEvents(PactDslWithProvider builder) {
        PactDslJsonBody firstPage = new PactDslJsonBody()
                .integerType("total", 25L)
                .numberValue("limit", 2)
                .numberValue("offset", 0)
                .stringMatcher("next_cursor", "[A-Za-z0-9_-]{10,200}", "AQM" + "A".repeat(69));
        firstPage.minArrayLike("results", 1)
                .integerType("event_index", 0)
                .stringValue("event_type", "smart_contract_log")
                .stringMatcher("tx_id", HASH, EX_DEPLOY_TX_ID)
                .object("contract_log")
                    .valueFromProviderState("contract_id", "${contractId}", EX_CONTRACT_ID)
                    .stringType("topic", "print")
                    .object("value")
                        .stringMatcher("hex", HEX, "0x0516661506d48705f932af21abcff23046b216886e84")
                        .stringType("repr", "'SP1K1A1PMGW2ZJCNF46NWZWHG8TS1D23EGH1KNK60")
                    .closeObject()
                .closeObject()
                .closeObject().closeArray();
        PactDslResponse pact = Bodies.ok(builder
                        .given("a contract has log events", Map.of("minEvents", 3))
                        .uponReceiving("getContractEvents: the first page of a contract's log events")
                        .pathFromProviderState("/extended/v1/contract/${contractId}/events",
                                "/extended/v1/contract/" + EX_CONTRACT_ID + "/events")
                        .method("GET")
                        .query("limit=2"),
                firstPage);
        pact = Bodies.ok(pact
                        .given("a contract has log events", Map.of("minEvents", 3))
                        .uponReceiving("getContractEvents: an offset past the end is an empty page")
                        .pathFromProviderState("/extended/v1/contract/${contractId}/events",
                                "/extended/v1/contract/" + EX_CONTRACT_ID + "/events")
                        .method("GET")
                        .query("offset=100000"),
                new PactDslJsonBody()
                        .numberValue("limit", 20)
                        .numberValue("offset", 100000)
                        .integerType("total", 25L)
                        .nullValue("next_cursor")
                        .array("results").closeArray());
        pact = Bodies.problem(pact
                .uponReceiving("getContractEvents: a limit above 50 is 400")
                .path("/extended/v1/contract/" + MISSING_CONTRACT + "/events")
                .method("GET")
                .query("limit=51"), 400, "limit");
        pact = Bodies.problem(pact
                .uponReceiving("getContractEvents: a cursor that is not a next_cursor is 400")
                .path("/extended/v1/contract/" + MISSING_CONTRACT + "/events")
                .method("GET")
                .query("cursor=not-a-cursor"), 400, "cursor");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getContractEvents")
    void getContractEvents(MockServer mockServer) throws ApiException {
        SmartContractsApi api = new SmartContractsApi(Clients.client(mockServer));

        ContractEventPage first = api.getContractEvents(EX_CONTRACT_ID, 2, null, null, null);
        assertEquals(2, first.getLimit());
        assertFalse(first.getResults().isEmpty());
        assertEquals(EventType.SMART_CONTRACT_LOG, first.getResults().get(0).getEventType());
        assertEquals(EX_CONTRACT_ID, first.getResults().get(0).getContractLog().getContractId());
        assertNotNull(first.getNextCursor());

        ContractEventPage past = api.getContractEvents(EX_CONTRACT_ID, null, 100000, null, null);
        assertTrue(past.getResults().isEmpty());
        assertTrue(past.getTotal() > 0);
        assertNull(past.getNextCursor());

        assertEquals("limit", Clients.problem(assertThrows(ApiException.class,
                () -> api.getContractEvents(MISSING_CONTRACT, 51, null, null, null)), 400).getParameter());
        assertEquals("cursor", Clients.problem(assertThrows(ApiException.class,
                () -> api.getContractEvents(MISSING_CONTRACT, null, null, null, "not-a-cursor")), 400).getParameter());
    }

    /** A contract-log cursor, {@code block_height:microblock_sequence:tx_index:event_index}. */
    private static final String LOG_CURSOR = "^[0-9]+:[0-9]+:[0-9]+:[0-9]+$";

    @Pact(consumer = Contract.CONSUMER)
    V4Pact getSmartContractLogs(PactDslWithProvider builder) {
        PactDslJsonBody newest = new PactDslJsonBody()
                .numberValue("limit", 2)
                .numberValue("offset", 0)
                .integerType("total", 25L)
                .nullValue("next_cursor")
                .stringMatcher("prev_cursor", LOG_CURSOR, "40:2147483647:2:0")
                .stringMatcher("cursor", LOG_CURSOR, "47:2147483647:5:0");
        newest.minArrayLike("results", 1)
                .integerType("event_index", 0)
                .stringValue("event_type", "smart_contract_log")
                .stringMatcher("tx_id", HASH, EX_DEPLOY_TX_ID)
                .object("contract_log")
                    .valueFromProviderState("contract_id", "${contractId}", EX_CONTRACT_ID)
                    .stringType("topic", "print")
                    .object("value")
                        .stringMatcher("hex", HEX, "0x0516661506d48705f932af21abcff23046b216886e84")
                        .stringType("repr", "'SP1K1A1PMGW2ZJCNF46NWZWHG8TS1D23EGH1KNK60")
                    .closeObject()
                .closeObject()
                .closeObject().closeArray();
        PactDslResponse pact = Bodies.ok(builder
                        .given("a contract has log events", Map.of("minEvents", 3))
                        .uponReceiving("getSmartContractLogs: a contract's newest log events, prev_cursor leading to older ones")
                        .pathFromProviderState("/extended/v2/smart-contracts/${contractId}/logs",
                                "/extended/v2/smart-contracts/" + EX_CONTRACT_ID + "/logs")
                        .method("GET")
                        .query("limit=2"),
                newest);
        pact = Bodies.ok(pact
                        .uponReceiving("getSmartContractLogs: a contract without logs is an empty page")
                        .path("/extended/v2/smart-contracts/" + MISSING_CONTRACT + "/logs")
                        .method("GET"),
                new PactDslJsonBody()
                        .numberValue("limit", 20)
                        .numberValue("offset", 0)
                        .numberValue("total", 0)
                        .nullValue("next_cursor")
                        .nullValue("prev_cursor")
                        .nullValue("cursor")
                        .array("results").closeArray());
        pact = Bodies.problem(pact
                .given("a contract has log events", Map.of("minEvents", 1))
                .uponReceiving("getSmartContractLogs: a cursor below every log event is 404")
                .pathFromProviderState("/extended/v2/smart-contracts/${contractId}/logs",
                        "/extended/v2/smart-contracts/" + EX_CONTRACT_ID + "/logs")
                .method("GET")
                .query("cursor=0:0:0:0"), 404, null);
        pact = Bodies.problem(pact
                .uponReceiving("getSmartContractLogs: a limit above 100 is 400")
                .path("/extended/v2/smart-contracts/" + MISSING_CONTRACT + "/logs")
                .method("GET")
                .query("limit=101"), 400, "limit");
        return pact.toPact(V4Pact.class);
    }

    @Test
    @PactTestFor(pactMethod = "getSmartContractLogs")
    void getSmartContractLogs(MockServer mockServer) throws ApiException {
        SmartContractsApi api = new SmartContractsApi(Clients.client(mockServer));

        ContractLogPage newest = api.getSmartContractLogs(EX_CONTRACT_ID, 2, null, null);
        assertEquals(2, newest.getLimit());
        assertNull(newest.getNextCursor());
        assertNotNull(newest.getPrevCursor());
        assertEquals(EventType.SMART_CONTRACT_LOG, newest.getResults().get(0).getEventType());

        ContractLogPage none = api.getSmartContractLogs(MISSING_CONTRACT, null, null, null);
        assertTrue(none.getResults().isEmpty());
        assertNull(none.getCursor());

        assertEquals(404, Clients.problem(assertThrows(ApiException.class,
                () -> api.getSmartContractLogs(EX_CONTRACT_ID, null, null, "0:0:0:0")), 404).getStatus());
        assertEquals("limit", Clients.problem(assertThrows(ApiException.class,
                () -> api.getSmartContractLogs(MISSING_CONTRACT, 101, null, null)), 400).getParameter());
    }
}
