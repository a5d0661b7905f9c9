package io.stacksexplorer.web;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.config.NetworkConfig;
import io.micronaut.http.context.ServerRequestContext;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Checks and normalises what Bean Validation cannot: c32check checksums, the address version of
 * the server's network, and the canonical spelling of hashes and principals.
 */
@Singleton
class RequestParams {

    private final NetworkConfig network;

    RequestParams(NetworkConfig network) {
        this.network = network;
    }

    /**
     * The {@code unanchored} flag as the peer's clients spell it: {@code true}, {@code 1} and a bare
     * {@code ?unanchored} mean true. The framework binds only {@code true}, so the raw query value of
     * the current request decides; {@code bound} is used when there is none. Other spellings never
     * get here ({@link BooleanQueryFilter}).
     */
    static boolean unanchored(Boolean bound) {
        List<String> raw = ServerRequestContext.currentRequest()
                .map(request -> request.getParameters().getAll("unanchored"))
                .orElse(List.of());
        if (raw.isEmpty()) {
            return Boolean.TRUE.equals(bound);
        }
        String last = raw.get(raw.size() - 1).toLowerCase(Locale.ROOT);
        return last.equals("true") || last.equals("1") || last.isEmpty();
    }

    /** A 32-byte hash, already pattern-checked: lowercase with {@code 0x}. */
    static String hash(String raw) {
        String lower = raw.toLowerCase(Locale.ROOT);
        return lower.startsWith("0x") ? lower : "0x" + lower;
    }

    /** Distinct normalised hashes in request order. */
    static List<String> hashes(List<String> raw) {
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String r : raw) {
            distinct.add(hash(r));
        }
        return new ArrayList<>(distinct);
    }

    /** A standard address or a contract id of this network, in canonical form. */
    String principal(String raw, String parameter) {
        Principal principal;
        try {
            principal = Principal.parse(raw);
        } catch (CodecException e) {
            throw ApiProblems.badParameter(parameter, "'" + raw + "' is not a valid address or contract id: "
                    + e.getMessage());
        }
        StacksAddress address = principal instanceof ContractId contract ? contract.address() : (StacksAddress) principal;
        if (address.isMainnet() != network.isMainnet()) {
            throw ApiProblems.badParameter(parameter, "'" + raw + "' is a "
                    + (address.isMainnet() ? "mainnet" : "testnet") + " address; this server indexes "
                    + (network.isMainnet() ? "mainnet" : "testnet"));
        }
        return principal.toString();
    }

    /** A contract id of this network, in canonical form. */
    String contractId(String raw, String parameter) {
        if (raw.indexOf('.') < 0) {
            throw ApiProblems.badParameter(parameter, "'" + raw + "' is not a contract id (<address>.<contract-name>)");
        }
        return principal(raw, parameter);
    }

    /** Distinct canonical contract ids in request order. */
    List<String> contractIds(List<String> raw, String parameter) {
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String r : raw) {
            distinct.add(contractId(r, parameter));
        }
        return new ArrayList<>(distinct);
    }
}
