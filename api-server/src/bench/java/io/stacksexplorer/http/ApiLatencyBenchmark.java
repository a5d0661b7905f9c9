package io.stacksexplorer.http;

import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.demo.DemoChain;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.ChainWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Read latency of every endpoint over HTTP on the demo chain, run on purpose only:
 * {@code mvn -B -o verify -pl spec,api-server -Pbenchmarks -Dbenchmark=ApiLatencyBenchmark [-Dpg.tests=true]}.
 * One client, sequential requests (no pipelining), after a warm-up; prints p50/p95/p99 per request
 * and the PostgreSQL/H2 ratio of the medians when both run. Deep pages (offset 2,000 of ~2,500) show
 * that history paging stays an index range scan.
 */
@EnabledIfSystemProperty(named = "benchmarks", matches = "true")
class ApiLatencyBenchmark {

    private static final int WARM_UP = 100;
    private static final int MEASURED = 500;

    @Test
    void readLatency() throws Exception {
        DemoChain chain = DemoChain.generate(DemoChain.DEFAULT_SEED);
        DemoChain.Summary s = chain.summary();
        String hot = s.hotAddresses().get(0);
        Map<String, String> requests = new LinkedHashMap<>();
        requests.put("status", "/extended");
        requests.put("block latest", "/extended/v2/blocks/latest");
        requests.put("block by hash", "/extended/v2/blocks/" + s.tipBlockHash());
        requests.put("tx lookup (3 ids)", "/extended/v1/tx/multiple?tx_id=" + s.exampleTxIdByType().get("contract_call")
                + "&tx_id=" + s.pendingTxId() + "&tx_id=0x" + "33".repeat(32));
        requests.put("contract status (2)", "/extended/v2/smart-contracts/status?contract_id=" + s.contractIdWithLogs()
                + "&contract_id=" + s.failedDeploymentContractId());
        requests.put("contract events p1", "/extended/v1/contract/" + s.contractIdWithLogs() + "/events?limit=50");
        requests.put("contract events deep", "/extended/v1/contract/" + s.contractIdWithLogs() + "/events?limit=50&offset=2000");
        requests.put("address txs p1", "/extended/v2/addresses/" + hot + "/transactions?limit=50");
        requests.put("address txs deep", "/extended/v2/addresses/" + hot + "/transactions?limit=50&offset=2000");
        requests.put("address mempool", "/extended/v1/address/" + hot + "/mempool");

        List<TestDatabase> databases = new ArrayList<>(List.of(TestDatabase.H2));
        if (TestDatabase.postgresEnabled()) {
            databases.add(TestDatabase.POSTGRES);
        }
        Map<TestDatabase, Map<String, double[]>> results = new LinkedHashMap<>();
        HttpClient http = HttpClient.newHttpClient();
        for (TestDatabase database : databases) {
            try (ApiServer api = ApiServer.start(database)) {
                ChainWriter writer = api.writer();
                for (NewBlock block : chain.blocks()) {
                    writer.writeBlock(block);
                }
                writer.addMempoolTransactions(chain.mempool());
                URI base = URI.create(api.context().getBean(EmbeddedServer.class).getURL().toString());
                Map<String, double[]> perRequest = new LinkedHashMap<>();
                for (Map.Entry<String, String> r : requests.entrySet()) {
                    HttpRequest request = HttpRequest.newBuilder(base.resolve(r.getValue())).GET().build();
                    for (int i = 0; i < WARM_UP; i++) {
                        http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                    }
                    double[] millis = new double[MEASURED];
                    for (int i = 0; i < MEASURED; i++) {
                        long start = System.nanoTime();
                        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        millis[i] = (System.nanoTime() - start) / 1e6;
                        if (response.statusCode() != 200) {
                            throw new IllegalStateException(r.getKey() + " answered " + response.statusCode());
                        }
                    }
                    Arrays.sort(millis);
                    perRequest.put(r.getKey(), millis);
                }
                results.put(database, perRequest);
            }
        }
        StringBuilder report = new StringBuilder("\nRead latency over HTTP, demo chain (" + s.blockCount() + " blocks, "
                + s.txCount() + " txs), " + MEASURED + " sequential requests each, milliseconds\n");
        report.append(String.format("%-22s", "request"));
        for (TestDatabase db : results.keySet()) {
            report.append(String.format(" | %-8s p50    p95    p99", db));
        }
        if (results.size() == 2) {
            report.append(" | PG/H2 p50");
        }
        report.append('\n');
        for (String name : requests.keySet()) {
            report.append(String.format("%-22s", name));
            for (Map<String, double[]> perRequest : results.values()) {
                double[] m = perRequest.get(name);
                report.append(String.format(" | %-8s %5.2f  %5.2f  %5.2f", "", pct(m, 50), pct(m, 95), pct(m, 99)));
            }
            if (results.size() == 2) {
                List<Map<String, double[]>> both = new ArrayList<>(results.values());
                report.append(String.format(" | %.2f", pct(both.get(1).get(name), 50) / pct(both.get(0).get(name), 50)));
            }
            report.append('\n');
        }
        System.out.println(report);
    }

    private static double pct(double[] sorted, int percentile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1)];
    }
}
