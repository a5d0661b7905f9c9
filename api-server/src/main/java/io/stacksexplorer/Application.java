package io.stacksexplorer;

import io.micronaut.runtime.Micronaut;
import io.stacksexplorer.config.StorageSettings;

import java.util.HashMap;
import java.util.Map;

/** Starts the API server on the database chosen by the environment (see {@link StorageSettings}). */
public final class Application {

    private Application() {
    }

    public static void main(String[] args) {
        Micronaut.build(args)
                .mainClass(Application.class)
                .properties(startupProperties(System.getenv()))
                .start();
    }

    /**
     * Storage from the environment; the demo chain (mainnet, generated) only ever goes into the
     * embedded database of a mainnet server, never into an operator's PostgreSQL.
     */
    static Map<String, Object> startupProperties(Map<String, String> env) {
        Map<String, Object> props = new HashMap<>(StorageSettings.properties(env));
        boolean testnet = "0x80000000".equalsIgnoreCase(env.getOrDefault("STACKS_CHAIN_ID", "").trim());
        if (StorageSettings.usesPostgres(env) || testnet) {
            props.put("demo-data.enabled", false);
        }
        return props;
    }
}
