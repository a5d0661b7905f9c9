package io.stacksexplorer.generate;

import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.FungibleConditionCode;
import io.stacksexplorer.codec.tx.PostCondition;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.PostConditionPrincipal;
import io.stacksexplorer.codec.tx.PoxConditionCode;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.generate.GeneratedTx.Extra;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.List;

/**
 * What epochs 3.4 and 4.0 add to the steady traffic. From 3.4 (SIP-040) deployments name Clarity 5,
 * some swaps use post-condition mode {@code originator} and some NFT transfers the {@code maybe_sent}
 * condition ({@link Traffic} asks {@link #originator} and {@link #maybeSent}). From 4.0 (pox-5,
 * SIP-044) deployments name Clarity 6, stacking is pox-5's {@code stake} under a {@code staking} post
 * condition and {@code unstake} under a {@code pox} one, and now and then the signers mark a
 * transaction problematic: it is mined without running ({@code problematic_skipped}: result
 * {@code (err none)}, no events, no cost; the fee is still paid). Each feature also comes once in the
 * first transactions of its epoch, so that even a small log has it.
 */
final class TodaysTraffic {

    static final String POX_5 = "SP000000000000000000002Q6VF78.pox-5";
    private static final ContractId POX_5_ID = ContractId.parse(POX_5);
    private static final int STAKERS = 256;

    private enum Feature { ORIGINATOR_SWAP, MAYBE_SENT_TRANSFER, DEPLOY, STAKE, UNSTAKE, PROBLEMATIC }

    private final Traffic traffic;
    private final ArrayDeque<Feature> due = new ArrayDeque<>();
    private final Account[] stakers = new Account[STAKERS];
    private final ContractId signerManager;
    private int stakerCount;
    private Epoch epoch = Epoch.TWO;
    private boolean forceOriginator;
    private boolean forceMaybeSent;

    TodaysTraffic(Traffic traffic) {
        this.traffic = traffic;
        this.signerManager = new ContractId(traffic.studio.address, "signer-manager");
    }

    void entered(Epoch next) {
        epoch = next;
        if (next == Epoch.E3_4) {
            due.addAll(List.of(Feature.DEPLOY, Feature.ORIGINATOR_SWAP, Feature.MAYBE_SENT_TRANSFER));
        } else if (next == Epoch.E4_0) {
            due.addAll(List.of(Feature.DEPLOY, Feature.STAKE, Feature.UNSTAKE, Feature.PROBLEMATIC));
        }
    }

    /** Clarity version of a deployment in this epoch: none named before 3.4 ({@code -1}). */
    int clarityVersion() {
        return epoch.atLeast(Epoch.E4_0) ? 6 : epoch.atLeast(Epoch.E3_4) ? 5 : -1;
    }

    /** A transaction of this epoch's own kinds, or null for the ordinary mix. */
    GeneratedTx next() {
        if (!epoch.atLeast(Epoch.E3_4)) {
            return null;
        }
        Feature feature = due.poll();
        if (feature == null && epoch.atLeast(Epoch.E4_0)) {
            int roll = traffic.random.nextInt(1_000);
            feature = roll < 3 ? Feature.STAKE : roll < 5 ? Feature.UNSTAKE : roll < 7 ? Feature.PROBLEMATIC : null;
        }
        if (feature == null) {
            return null;
        }
        GeneratedTx tx = switch (feature) {
            case DEPLOY -> traffic.helloDeploy();
            case ORIGINATOR_SWAP -> {
                forceOriginator = true;
                yield traffic.swap(traffic.richUser(200 * TxKit.STX));
            }
            case MAYBE_SENT_TRANSFER -> {
                forceMaybeSent = true;
                yield traffic.nftTransfer();
            }
            case STAKE -> stake();
            case UNSTAKE -> unstake();
            case PROBLEMATIC -> problematic();
        };
        forceOriginator = false;
        forceMaybeSent = false;
        return tx;
    }

    /** From 3.4 a third of the swaps deny only the trader's own unlisted asset moves. */
    PostConditionMode originator() {
        if (!epoch.atLeast(Epoch.E3_4)) {
            return PostConditionMode.DENY;
        }
        return forceOriginator || traffic.random.nextInt(3) == 0 ? PostConditionMode.ORIGINATOR
                : PostConditionMode.DENY;
    }

    /** From 3.4 a wallet that cannot tell whether the token leaves says so. */
    boolean maybeSent() {
        return epoch.atLeast(Epoch.E3_4) && (forceMaybeSent || traffic.random.nextInt(5) == 0);
    }

    /** pox-5 {@code stake}: locks STX for whole cycles, bounded by the staker's own staking post condition. */
    GeneratedTx stake() {
        Account staker = traffic.richUser(150_000 * TxKit.STX);
        long amount = traffic.random.nextLong(50_000, 150_000) * TxKit.STX;
        long cycles = traffic.random.nextLong(1, 13);
        long start = traffic.burnHeight + 1;
        long firstCycle = (start - TxKit.POX_FIRST_BURN_HEIGHT) / TxKit.POX_CYCLE_LENGTH + 1;
        long unlockCycle = firstCycle + cycles;
        long unlockHeight = TxKit.POX_FIRST_BURN_HEIGHT + unlockCycle * TxKit.POX_CYCLE_LENGTH;
        Encoded tx = traffic.sign(staker, traffic.fee(10_000, 50_000), null, 0, AnchorMode.ANY,
                PostConditionMode.DENY, List.of(new PostCondition.Staking(new PostConditionPrincipal.Origin(),
                        FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(amount))),
                TxKit.call(POX_5_ID, "stake", new ClarityValue.ContractPrincipal(signerManager), TxKit.uint(amount),
                        TxKit.uint(cycles), TxKit.uint(start), ClarityValue.NONE));
        stakers[stakerCount++ % STAKERS] = staker;
        ClarityValue result = position(staker, amount, firstCycle, cycles, unlockCycle, unlockHeight);
        return traffic.done(tx, staker, null, null, TxOutcome.SUCCESS, new ClarityValue.ResponseOk(result)
                .serializeHex(), traffic.callCost(9), null, List.of(
                        new NewEvent.StxLock(BigInteger.valueOf(amount), unlockHeight, staker.id),
                        TxKit.log(POX_5, merged("stake", staker, amount, firstCycle, cycles, unlockCycle,
                                unlockHeight))))
                .withExtra(new Extra(null, POX_5, null));
    }

    /** pox-5 {@code unstake}: a position-altering PoX action, which the staker's pox post condition allows. */
    GeneratedTx unstake() {
        if (stakerCount == 0) {
            return stake();
        }
        Account staker = stakers[traffic.random.nextInt(Math.min(stakerCount, STAKERS))];
        long amount = traffic.random.nextLong(50_000, 150_000) * TxKit.STX;
        long cycle = (traffic.burnHeight - TxKit.POX_FIRST_BURN_HEIGHT) / TxKit.POX_CYCLE_LENGTH;
        long unlockHeight = TxKit.POX_FIRST_BURN_HEIGHT + (cycle + 1) * TxKit.POX_CYCLE_LENGTH;
        PoxConditionCode code = traffic.random.nextBoolean() ? PoxConditionCode.PERFORMED
                : PoxConditionCode.MAYBE_PERFORMED;
        Encoded tx = traffic.sign(staker, traffic.fee(10_000, 50_000), null, 0, AnchorMode.ANY,
                PostConditionMode.DENY, List.of(new PostCondition.Pox(new PostConditionPrincipal.Origin(), code)),
                TxKit.call(POX_5_ID, "unstake", new ClarityValue.ContractPrincipal(signerManager)));
        ClarityValue result = position(staker, amount, cycle, 1, cycle + 1, unlockHeight);
        return traffic.done(tx, staker, null, null, TxOutcome.SUCCESS, new ClarityValue.ResponseOk(result)
                .serializeHex(), traffic.callCost(6), null, List.of(TxKit.log(POX_5, merged("unstake", staker, amount,
                cycle, 1, cycle + 1, unlockHeight))));
    }

    /**
     * A call the block's signers marked problematic: its payload does not run, so nothing but the
     * fee and the nonce changes. The node writes its receipt with result {@code (err none)}, no
     * events, a zero cost, no {@code vm_error}, and the marker's category (0 here).
     */
    GeneratedTx problematic() {
        Account caller = traffic.richUser(TxKit.STX);
        ContractId contract = new ContractId(traffic.helloDeployer(1).address, "hello-world-1");
        Encoded tx = traffic.sign(caller, traffic.fee(1_000, 6_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(), TxKit.call(contract, "say-hi", TxKit.ascii(traffic.pick(TxKit.GREETINGS))));
        return traffic.done(tx, caller, null, null, TxOutcome.PROBLEMATIC_SKIPPED,
                new ClarityValue.ResponseErr(ClarityValue.NONE).serializeHex(), ExecutionCost.ZERO, null, List.of());
    }

    private ClarityValue position(Account staker, long amount, long firstCycle, long cycles, long unlockCycle,
                                  long unlockHeight) {
        return TxKit.tuple("amount-ustx", TxKit.uint(amount), "first-reward-cycle", TxKit.uint(firstCycle),
                "num-cycles", TxKit.uint(cycles), "signer", new ClarityValue.ContractPrincipal(signerManager),
                "staker", staker.principal, "unlock-burn-height", TxKit.uint(unlockHeight),
                "unlock-cycle", TxKit.uint(unlockCycle));
    }

    private ClarityValue merged(String topic, Account staker, long amount, long firstCycle, long cycles,
                                long unlockCycle, long unlockHeight) {
        return TxKit.tuple("amount-ustx", TxKit.uint(amount), "first-reward-cycle", TxKit.uint(firstCycle),
                "num-cycles", TxKit.uint(cycles), "signer", new ClarityValue.ContractPrincipal(signerManager),
                "staker", staker.principal, "topic", TxKit.ascii(topic), "unlock-burn-height",
                TxKit.uint(unlockHeight), "unlock-cycle", TxKit.uint(unlockCycle));
    }
}
