package io.stacksexplorer.web;

import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.address.StacksAddress;
import io.micronaut.http.context.ServerRequestContext;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Checks and normalises what Bean Validation cannot: c32check checksums, address versions, and
 * the canonical spelling of hashes and principals.
 */
@Singleton
class RequestParams {

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

    /**
     * Distinct normalised transaction ids in request order, from repeated parameters, comma-separated
     * lists (as the peer's clients send them) or both; at most {@code max} ids in total (the
     * framework caps only the number of parameters).
     */
    static List<String> txIds(List<String> raw, String parameter, int max) {
        List<String> all = new ArrayList<>();
        for (String r : raw) {
            for (String id : r.split(",", -1)) {
                all.add(id);
            }
        }
        if (all.size() > max) {
            throw ApiProblems.badParameter(parameter, all.size() + " ids requested; at most " + max + " are allowed");
        }
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String id : all) {
            distinct.add(hash(id));
        }
        return new ArrayList<>(distinct);
    }

    /**
     * A standard address or a contract id, in canonical form: a valid c32check checksum and the
     * version of a mainnet or testnet address. Both networks are accepted whatever the server
     * indexes, as at the peer: a mocknet chain runs with the testnet chain id and carries mainnet
     * addresses and contracts, and an address of the other network without data is simply empty.
     */
    String principal(String raw, String parameter) {
        Principal principal;
        try {
            principal = Principal.parse(raw);
        } catch (CodecException e) {
            throw ApiProblems.badParameter(parameter, "'" + raw + "' is not a valid address or contract id: "
                    + e.getMessage());
        }
        StacksAddress address = principal instanceof ContractId contract ? contract.address() : (StacksAddress) principal;
        if (!address.isMainnet() && !address.isTestnet()) {
            throw ApiProblems.badParameter(parameter, "'" + raw + "' has address version " + address.version()
                    + ", which is neither a mainnet (22, 20) nor a testnet (26, 21) address");
        }
        return principal.toString();
    }

    /** A contract id, in canonical form. */
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
