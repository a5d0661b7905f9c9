package io.stacksexplorer.generate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The contracts the generator deploys and calls: Clarity sources in {@code contracts/*.clar} beside
 * this class, and for those that deploy successfully the ABI the node reports
 * ({@code contracts/*.abi.json}, the node's shape). The sources read like real contracts so that a
 * source view has something to show; nothing executes them.
 */
final class ContractSources {

    /** A deployable contract: its name, source and ABI (null for a deployment that aborts). */
    record Contract(String name, String source, String abi) {
    }

    static final Contract TOKEN = withAbi("demo-token");
    static final Contract NFT = withAbi("demo-nft");
    static final Contract DEX = withAbi("demo-dex");
    static final Contract REGISTRY = withAbi("name-registry");

    /** A deploy whose top-level code fails at runtime: abort_by_response, never redeployed. */
    static final Contract VAULT = new Contract("vault-v0", resource("vault-v0.clar"), null);

    /** A deploy whose top-level STX transfer breaks the deployer's own post condition. */
    static final Contract LAUNCHPAD = new Contract("launchpad", resource("launchpad.clar"), null);

    private static final Contract HELLO = withAbi("hello-world");

    private ContractSources() {
    }

    /** Small contracts users deploy now and then, each under its own name. */
    static Contract hello(String name, int clarityVersion) {
        return new Contract(name, HELLO.source().replaceFirst("^;; hello-world:", ";; " + name + ":"),
                HELLO.abi().replace("\"clarity_version\":\"Clarity1\"",
                        "\"clarity_version\":\"Clarity" + clarityVersion + "\""));
    }

    private static Contract withAbi(String name) {
        return new Contract(name, resource(name + ".clar"), resource(name + ".abi.json").strip());
    }

    private static String resource(String file) {
        try (InputStream in = ContractSources.class.getResourceAsStream("contracts/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource contracts/" + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
