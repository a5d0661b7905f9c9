package io.stacksexplorer.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.config.RunModeSettings;
import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.subscribe.WsClient;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Subscriptions on a readonly server over a real streaming standby, where PostgreSQL's NOTIFY never
 * arrives: the writer on the primary writes blocks; a client of the reader gets every block, in
 * order, and each one it is told about can be read from the reader at once (the reader learns of
 * a change from the replayed change log, so the data came with it).
 */
class StandbySubscriptionsPostgresTest {

    @Test
    void aReaderOnAStandbyNotifiesOnlyWhatItCanServe() throws Exception {
        assumeTrue(PgCluster.available(), "needs -Dpg.tests=true and the postgresql server binaries");
        List<NewBlock> blocks = DemoChain.generate(DemoChain.DEFAULT_SEED).blocks().subList(0, 15);
        try (PgCluster primary = PgCluster.primary(); PgCluster standby = primary.standby();
             ApplicationContext writer = ApplicationContext.run(EmbeddedServer.class,
                     DatabaseOutagePostgresTest.serverProperties(primary)).getApplicationContext()) {
            ChainWriter chain = writer.getBean(ChainWriter.class);
            chain.writeBlock(blocks.get(0));
            Map<String, Object> readerProps = new HashMap<>(StorageSettings.properties(standby.env()));
            readerProps.putAll(RunModeSettings.readonlyProperties());
            readerProps.put("micronaut.server.port", -1);
            readerProps.put("micronaut.server.host", "127.0.0.1");
            try (ApplicationContext reader = ApplicationContext.run(EmbeddedServer.class, readerProps).getApplicationContext()) {
                String api = "http://127.0.0.1:" + reader.getBean(EmbeddedServer.class).getPort();
                // The schema reaches the standby by replication: wait until the reader serves block 1.
                Wait.until(() -> Http.get(api + "/extended/v2/blocks/1"), a -> a.status() == 200, 30);
                List<String> unreadable = new CopyOnWriteArrayList<>();
                try (WsClient client = new WsClient(api.replace("http", "ws") + "/extended/v1/ws", n -> {
                    if (n.path("method").asText().equals("block")) {
                        Http.Answer a = Http.get(api + "/extended/v2/blocks/" + n.at("/params/hash").asText());
                        if (a.status() != 200) {
                            unreadable.add("block " + n.at("/params/height") + ": " + a.status());
                        }
                    }
                })) {
                    client.subscribe(WsClient.params("block"));
                    blocks.subList(1, blocks.size()).forEach(chain::writeBlock);
                    List<Long> heights = new ArrayList<>();
                    while (heights.size() < blocks.size() - 1) {
                        JsonNode n = client.next(30);
                        assertNotNull(n, "the reader announced only blocks " + heights);
                        if (n.path("method").asText().equals("block")) {
                            heights.add(n.at("/params/height").asLong());
                        }
                    }
                    List<Long> expected = new ArrayList<>();
                    for (long h = 2; h <= blocks.size(); h++) {
                        expected.add(h);
                    }
                    assertEquals(expected, heights, "every block written on the primary, in order");
                    assertEquals(List.of(), unreadable, "each announced block was readable from the reader at once");
                }
            }
        }
    }
}
