package io.stacksexplorer.conformance.provider;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.conformance.provider.states.DemoChainSeed;
import io.stacksexplorer.write.ChainWriter;

/** The real server (Micronaut, Netty) on a random port over a fresh database, and its seed. */
final class ProviderApp implements AutoCloseable {

    private final EmbeddedServer server;
    private final DemoChainSeed seed;

    private ProviderApp(EmbeddedServer server) {
        this.server = server;
        this.seed = new DemoChainSeed(server.getApplicationContext().getBean(ChainWriter.class));
    }

    static ProviderApp start(TestDatabase database) {
        return new ProviderApp(ApplicationContext.run(EmbeddedServer.class, database.serverProperties()));
    }

    int port() {
        return server.getPort();
    }

    DemoChainSeed seed() {
        return seed;
    }

    @Override
    public void close() {
        server.getApplicationContext().close();
    }
}
