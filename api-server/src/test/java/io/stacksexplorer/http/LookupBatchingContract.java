package io.stacksexplorer.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.write.NewBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A many-id lookup reads the events of all its transactions in one query and the ABIs of all called
 * contracts in another: each transaction must still get exactly its own page of events and the
 * argument names of its own contract, as a lookup of that id alone does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LookupBatchingContract {

    static final DemoChain CHAIN = DemoChain.generate(DemoChain.DEFAULT_SEED);
    static final DemoChainExpectations EXPECT = new DemoChainExpectations(CHAIN);

    ApiServer api;

    abstract TestDatabase database();

    @BeforeAll
    void loadDemoChain() {
        api = ApiServer.start(database());
        for (NewBlock block : CHAIN.blocks()) {
            api.writer().writeBlock(block);
        }
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    /** Up to 20 canonical transactions: contract calls of as many contracts as possible, then others. */
    private List<DemoChainExpectations.Mined> mixed() {
        List<DemoChainExpectations.Mined> picked = new ArrayList<>();
        Set<String> contracts = new LinkedHashSet<>();
        for (DemoChainExpectations.Mined m : EXPECT.mined) {
            if (m.decoded().payload() instanceof TransactionPayload.ContractCall call
                    && contracts.add(call.contract().toString()) && m.tx().events().size() >= 2) {
                picked.add(m);
            }
        }
        for (DemoChainExpectations.Mined m : EXPECT.mined) {
            if (picked.size() < 20 && !picked.contains(m) && m.tx().events().size() >= 3) {
                picked.add(m);
            }
        }
        return picked.subList(0, Math.min(20, picked.size()));
    }

    @Test
    void eachTransactionGetsItsOwnPageOfEvents() {
        List<DemoChainExpectations.Mined> txs = mixed();
        assertTrue(txs.size() >= 10, "the demo chain has enough transactions with events");
        StringBuilder query = new StringBuilder("/extended/v1/tx/multiple?event_limit=2&event_offset=1");
        txs.forEach(m -> query.append("&tx_id=").append(m.tx().txId()));
        JsonNode body = api.get(query.toString()).body();
        for (DemoChainExpectations.Mined m : txs) {
            JsonNode events = body.at("/" + m.tx().txId() + "/result/events");
            int expected = Math.min(2, m.tx().events().size() - 1);
            assertEquals(expected, events.size(), m.tx().txId());
            for (int i = 0; i < expected; i++) {
                JsonNode event = events.get(i);
                assertEquals(m.tx().txId(), event.get("tx_id").asText());
                assertEquals(1 + i, event.get("event_index").asInt());
                assertEquals(m.tx().events().get(1 + i).eventType(), event.get("event_type").asText());
            }
        }
    }

    @Test
    void manyIdsAnswerWhatEachIdAnswersAlone() {
        List<DemoChainExpectations.Mined> txs = mixed();
        StringBuilder query = new StringBuilder("/extended/v1/tx/multiple?event_limit=3");
        txs.forEach(m -> query.append("&tx_id=").append(m.tx().txId()));
        JsonNode together = api.get(query.toString()).body();
        int namedArguments = 0;
        for (DemoChainExpectations.Mined m : txs) {
            String id = m.tx().txId();
            JsonNode alone = api.get("/extended/v1/tx/multiple?event_limit=3&tx_id=" + id).body().get(id);
            assertEquals(alone, together.get(id), id);
            for (JsonNode arg : alone.at("/result/contract_call/function_args")) {
                namedArguments += arg.get("name").asText().isEmpty() ? 0 : 1;
            }
        }
        assertTrue(namedArguments > 0, "some calls are to contracts whose ABI names their arguments");
    }
}
