package io.stacksexplorer.web;

import io.micronaut.http.HttpRequest;
import io.stacksexplorer.web.KeptAnswers.Dependency;
import io.stacksexplorer.web.KeptAnswers.Kind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each route's request line and what its answer is made from, in the stores' spelling. */
class AnswerDependenciesTest {

    private static final String ADDRESS = "SP000000000000000000002Q6VF78";
    private static final String CONTRACT = ADDRESS + ".pox-4";
    private static final String TX_A = "0x" + "ab".repeat(32);
    private static final String TX_B = "0x" + "cd".repeat(32);

    private final AnswerDependencies dependencies = new AnswerDependencies(new RequestParams());

    private List<Dependency> of(String line) {
        return dependencies.of(HttpRequest.GET(line));
    }

    private static List<Dependency> one(Kind kind, String id) {
        return List.of(new Dependency(kind, id));
    }

    @Test
    void everyRoute() {
        List<Dependency> tip = List.of(Dependency.of(Kind.TIP));
        assertEquals(tip, of("/extended"));
        assertEquals(tip, of("/extended/"));
        assertEquals(tip, of("/extended/v1/status"));
        assertEquals(List.of(Dependency.of(Kind.TIP), Dependency.of(Kind.REORG)), of("/extended/v2/blocks/latest"));
        assertEquals(List.of(Dependency.of(Kind.REORG)), of("/extended/v2/blocks/12"));
        assertEquals(List.of(Dependency.of(Kind.REORG)), of("/extended/v2/blocks/" + TX_A));
        assertEquals(List.of(new Dependency(Kind.TX, TX_A), new Dependency(Kind.TX, TX_B)),
                of("/extended/v1/tx/multiple?tx_id=" + TX_A + "&tx_id=" + TX_B + "&event_limit=5"));
        assertEquals(one(Kind.CONTRACT, CONTRACT), of("/extended/v2/smart-contracts/status?contract_id=" + CONTRACT));
        assertEquals(one(Kind.LOGS, CONTRACT), of("/extended/v1/contract/" + CONTRACT + "/events?limit=5"));
        assertEquals(one(Kind.LOGS, CONTRACT), of("/extended/v2/smart-contracts/" + CONTRACT + "/logs"));
        assertEquals(one(Kind.PRINCIPAL, ADDRESS), of("/extended/v2/addresses/" + ADDRESS + "/transactions?limit=5"));
        assertEquals(one(Kind.PRINCIPAL, CONTRACT), of("/extended/v3/principals/" + CONTRACT + "/transactions"));
        assertEquals(one(Kind.MEMPOOL, ADDRESS), of("/extended/v1/address/" + ADDRESS + "/mempool"));
        assertEquals(one(Kind.MEMPOOL, CONTRACT), of("/extended/v3/principals/" + CONTRACT + "/mempool/transactions"));
    }

    @Test
    void theStoresSpelling() {
        // Ids without 0x, upper case, comma-separated and repeated: the change log's spelling, once each.
        assertEquals(List.of(new Dependency(Kind.TX, TX_A), new Dependency(Kind.TX, TX_B)),
                of("/extended/v1/tx/multiple?tx_id=" + TX_A.substring(2).toUpperCase() + "," + TX_B + "&tx_id=" + TX_A));
        assertEquals(one(Kind.PRINCIPAL, ADDRESS),
                of("/extended/v2/addresses/" + ADDRESS.replace("P", "%50") + "/transactions"));
    }

    @Test
    void whatItCannotNameDependsOnAnyChange() {
        List<Dependency> any = List.of(Dependency.of(Kind.ANY));
        assertEquals(any, of("/extended/openapi.yaml"));
        assertEquals(any, of("/extended/v2/addresses/not-an-address/transactions"));
        assertEquals(any, of("/extended/v1/tx/multiple"));
        assertEquals(any, of("/extended/v1/contract/" + ADDRESS + "/events"));
    }
}
