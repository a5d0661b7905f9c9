package io.stacksexplorer.write;

import java.math.BigInteger;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The columns the write path derives from a raw transaction: what the stores index and count.
 * Everything else (payload, post conditions) is decoded from the raw bytes when served.
 *
 * @param contractId the deployed contract for {@code smart_contract}, the called one for
 *                   {@code contract_call}, otherwise null
 * @param recipient  the token-transfer recipient, otherwise null
 */
public record TxFacts(
        String txType,
        long nonce,
        BigInteger fee,
        String senderAddress,
        boolean sponsored,
        String sponsorAddress,
        Long sponsorNonce,
        String contractId,
        String recipient) {

    /** Who pays the fee: the sponsor when sponsored, else the sender. */
    public String feePayer() {
        return sponsored ? sponsorAddress : senderAddress;
    }

    /**
     * Principals a transaction concerns before looking at its events: sender, sponsor,
     * token-transfer recipient, and the deployed or called contract.
     */
    public Set<String> directPrincipals() {
        Set<String> principals = new LinkedHashSet<>();
        principals.add(senderAddress);
        if (sponsored && sponsorAddress != null) {
            principals.add(sponsorAddress);
        }
        if (recipient != null) {
            principals.add(recipient);
        }
        if (contractId != null) {
            principals.add(contractId);
        }
        return principals;
    }
}
