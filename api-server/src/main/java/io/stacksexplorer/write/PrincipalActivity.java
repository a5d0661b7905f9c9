package io.stacksexplorer.write;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one transaction means for each principal it involves: STX sent and received and the
 * transfer/mint/burn counts per asset kind. Computed once at write time so that an address
 * history page is a plain index scan (the peer sums events per request).
 */
public record PrincipalActivity(
        String principal,
        BigInteger stxSent,
        BigInteger stxReceived,
        int stxTransfer, int stxMint, int stxBurn,
        int ftTransfer, int ftMint, int ftBurn,
        int nftTransfer, int nftMint, int nftBurn) {

    /**
     * Derives one row per principal: the sender, sponsor, recipient and contract of the transaction
     * and every principal on either side of its asset events or whose STX it locked.
     * {@code stx_sent} includes the fee for the principal that paid it, unless the block skipped the
     * transaction ({@link TxOutcome#PROBLEMATIC_SKIPPED}: not run, so nothing charged).
     */
    public static List<PrincipalActivity> derive(TxFacts facts, TxOutcome status, List<NewEvent> events) {
        Map<String, Tally> tallies = new LinkedHashMap<>();
        for (String principal : facts.directPrincipals()) {
            tallies.put(principal, new Tally());
        }
        Tally payer = tally(tallies, facts.feePayer());
        if (status != TxOutcome.PROBLEMATIC_SKIPPED) {
            payer.stxSent = payer.stxSent.add(facts.fee());
        }
        for (NewEvent event : events) {
            // Java 17: no pattern matching for switch yet.
            if (event instanceof NewEvent.StxAsset stx) {
                if (stx.sender() != null) {
                    Tally t = tally(tallies, stx.sender());
                    t.stxSent = t.stxSent.add(stx.amount());
                    t.stx[stx.action().ordinal()]++;
                }
                if (stx.recipient() != null) {
                    Tally t = tally(tallies, stx.recipient());
                    t.stxReceived = t.stxReceived.add(stx.amount());
                    if (!stx.recipient().equals(stx.sender())) {
                        t.stx[stx.action().ordinal()]++;
                    }
                }
            } else if (event instanceof NewEvent.FungibleAsset ft) {
                countBothSides(tallies, ft.sender(), ft.recipient(), ft.action(), true);
            } else if (event instanceof NewEvent.NonFungibleAsset nft) {
                countBothSides(tallies, nft.sender(), nft.recipient(), nft.action(), false);
            } else if (event instanceof NewEvent.StxLock lock) {
                tally(tallies, lock.lockedAddress());
            }
            // A print does not make the printing contract a party of the transaction.
        }
        return tallies.entrySet().stream().map(e -> e.getValue().toActivity(e.getKey())).toList();
    }

    private static void countBothSides(Map<String, Tally> tallies, String sender, String recipient,
                                       NewEvent.AssetAction action, boolean fungible) {
        if (sender != null) {
            Tally t = tally(tallies, sender);
            (fungible ? t.ft : t.nft)[action.ordinal()]++;
        }
        if (recipient != null && !recipient.equals(sender)) {
            Tally t = tally(tallies, recipient);
            (fungible ? t.ft : t.nft)[action.ordinal()]++;
        }
    }

    private static Tally tally(Map<String, Tally> tallies, String principal) {
        return tallies.computeIfAbsent(principal, p -> new Tally());
    }

    /** Accumulator; counts are indexed by {@link NewEvent.AssetAction#ordinal()}. */
    private static final class Tally {
        BigInteger stxSent = BigInteger.ZERO;
        BigInteger stxReceived = BigInteger.ZERO;
        final int[] stx = new int[3];
        final int[] ft = new int[3];
        final int[] nft = new int[3];

        PrincipalActivity toActivity(String principal) {
            return new PrincipalActivity(principal, stxSent, stxReceived,
                    stx[0], stx[1], stx[2], ft[0], ft[1], ft[2], nft[0], nft[1], nft[2]);
        }
    }
}
