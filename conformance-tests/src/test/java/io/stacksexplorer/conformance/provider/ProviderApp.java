package io.stacksexplorer.conformance.provider;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.conformance.provider.states.DemoChainSeed;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.ChainWriter;

import java.util.HashMap;
import java.util.Map;

/** The real server (Micronaut, Netty) on a random port over a fresh database, and its seed. */
final class ProviderApp implements AutoCloseable {

    private final EmbeddedServer server;
    private final DemoChainSeed seed;

    private ProviderApp(EmbeddedServer server) {
        this.server = server;
        this.seed = new DemoChainSeed(server.getApplicationContext().getBean(ChainWriter.class));
    }

    static ProviderApp start(TestDatabase database) {
        Map<String, Object> props = new HashMap<>(database.freshProperties());
        props.put("micronaut.server.host", "127.0.0.1");
        return new ProviderApp(ApplicationContext.run(EmbeddedServer.class, props));
    }

    int port() {
        return server.getPort();
    }

    DemoChainSeed seed() {
        return seed;
    }

    @Override
    public void close() {
        TestDatabase.dropSchemaOf(server.getApplicationContext());
        server.getApplicationContext().close();
    }
}
