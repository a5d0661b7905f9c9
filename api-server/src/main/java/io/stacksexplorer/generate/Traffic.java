package io.stacksexplorer.generate;

import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.TenureChangeCause;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The transactions of the generated chain: who sends what to whom, and what the node would report
 * for it (result, cost, events). All state is bounded: a fixed pool of accounts with their nonces
 * and believed balances, and capped books of recent NFTs and names; nothing grows with the chain.
 *
 * <p>The mix is tuned so that the hot address (an exchange wallet: withdrawals, deposits, its own
 * swaps) takes part in about a third of all transactions, and the hot contract (the DEX, whose swaps
 * also print through the token) emits about a third of all contract logs.
 */
final class Traffic extends ContractTraffic {

    /** What the steady traffic does, with relative weights (per 1,000 non-coinbase transactions). */
    private enum Action {
        WITHDRAWAL(107), DEPOSIT(107), USER_TRANSFER(140), SWAP(165), HOT_SWAP(50), TOKEN_TRANSFER(70),
        TOKEN_MINT(10), TOKEN_BURN(10), NFT_CLAIM(40), NFT_TRANSFER(30), NFT_BURN(5), HELLO_CALL(30),
        HELLO_DEPLOY(5), FAILED_DEPLOY(1), REGISTER(20), RENEW(5), STACK(4), POISON(1), TENURE_CHANGE(1);

        final int weight;

        Action(int weight) {
            this.weight = weight;
        }
    }

    private static final Action[] ACTIONS = Action.values();
    private static final int TOTAL_WEIGHT;

    static {
        int total = 0;
        for (Action a : ACTIONS) {
            total += a.weight;
        }
        TOTAL_WEIGHT = total;
    }

    private long steady;
    final TodaysTraffic today;

    Traffic(SplittableRandom random) {
        super(random);
        today = new TodaysTraffic(this);
    }

    @Override
    PostConditionMode swapMode() {
        return today.originator();
    }

    @Override
    boolean maybeSent() {
        return today.maybeSent();
    }

    @Override
    int clarityVersion() {
        return today.clarityVersion();
    }

    // --- block-level transactions ---------------------------------------------------------------

    /**
     * The genesis block's transaction, which carries the initial allocations as mint events (a node
     * reports them on a transaction of block 0, never on a coinbase). Signed by an account outside
     * the pool, which sends one micro-STX to the labs account.
     */
    GeneratedTx genesis() {
        Account boot = newAccount(false);
        Encoded tx = sign(boot, 0, null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.ALLOW, List.of(),
                new TransactionPayload.TokenTransfer(labs.address, BigInteger.ONE, EMPTY_MEMO));
        List<NewEvent> events = new ArrayList<>();
        mint(events, hot, 150_000_000 * STX);
        mint(events, labs, 10_000_000 * STX);
        mint(events, studio, 1_000_000 * STX);
        mint(events, sponsor, 5_000_000 * STX);
        for (Account user : users) {
            mint(events, user, random.nextLong(200, 250_000) * STX);
        }
        return done(tx, boot, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, events);
    }

    /** A 2.x block's coinbase: no events (the reward matures 100 blocks later). */
    GeneratedTx coinbase(Account miner) {
        Optional<Principal> altRecipient = random.nextInt(100) < 4 ? Optional.of(pickUser().address)
                : Optional.empty();
        Encoded tx = sign(miner, 0, null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY, List.of(),
                new TransactionPayload.Coinbase(hash32(), altRecipient, Optional.empty()));
        return done(tx, miner, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, List.of());
    }

    /** A Nakamoto tenure's coinbase, with the miner's VRF proof. */
    GeneratedTx nakamotoCoinbase(Account miner) {
        Optional<Principal> altRecipient = random.nextInt(100) < 4 ? Optional.of(pickUser().address)
                : Optional.empty();
        Encoded tx = sign(miner, 0, null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY, List.of(),
                new TransactionPayload.Coinbase(hash32(), altRecipient, Optional.of(hex(80))));
        return done(tx, miner, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, List.of());
    }

    /**
     * A tenure change of a Nakamoto block: {@code BLOCK_FOUND} opens a tenure (with the coinbase
     * after it), {@code EXTENDED} lets the miner go on past its budget.
     */
    GeneratedTx tenureChange(Account miner, String tenureConsensusHash, String previousConsensusHash,
                             String previousTenureEnd, long previousTenureBlocks, TenureChangeCause cause) {
        Encoded tx = sign(miner, 0, null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY, List.of(),
                new TransactionPayload.TenureChange(tenureConsensusHash, previousConsensusHash, tenureConsensusHash,
                        previousTenureEnd, previousTenureBlocks, cause, miner.hash160Hex));
        return done(tx, miner, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, List.of());
    }

    private static void mint(List<NewEvent> events, Account to, long amount) {
        to.stx += amount;
        events.add(new NewEvent.StxAsset(AssetAction.MINT, null, to.id, BigInteger.valueOf(amount), null));
    }

    /**
     * One ordinary transaction. The contracts the traffic uses are deployed by the first calls
     * (four deployments and the pool's liquidity), so the first block holds them.
     */
    GeneratedTx next() {
        if (!bootstrapped) {
            return bootstrap();
        }
        // The rare kinds also come once early, so that even a small log has every kind. Poison
        // microblocks and stray tenure changes belong to 2.x blocks only: Nakamoto has no
        // microblocks, and its tenure changes come from the block builder.
        switch (nakamoto ? 0 : (int) Math.min(++steady, Integer.MAX_VALUE)) {
            case 250 -> {
                return poisonMicroblock();
            }
            case 500 -> {
                return tenureChange();
            }
            case 750 -> {
                return failedDeploy(true);
            }
            case 1000 -> {
                return failedDeploy(false);
            }
            default -> {
            }
        }
        GeneratedTx later = today.next();
        if (later != null) {
            return later;
        }
        int roll = random.nextInt(TOTAL_WEIGHT);
        Action action = ACTIONS[0];
        for (Action a : ACTIONS) {
            if (roll < a.weight) {
                action = a;
                break;
            }
            roll -= a.weight;
        }
        GeneratedTx tx = switch (action) {
            case WITHDRAWAL -> withdrawal(AnchorMode.ANY);
            case DEPOSIT -> deposit(AnchorMode.ANY);
            case USER_TRANSFER -> userTransfer(AnchorMode.ANY);
            case SWAP -> swap(richUser(200 * STX));
            case HOT_SWAP -> swap(hot);
            case TOKEN_TRANSFER -> tokenTransfer();
            case TOKEN_MINT -> tokenMint(pickUser(), random.nextLong(1_000, 500_000) * TOKEN);
            case TOKEN_BURN -> tokenBurn();
            case NFT_CLAIM -> nftClaim();
            case NFT_TRANSFER -> nftTransfer();
            case NFT_BURN -> nftBurn();
            case HELLO_CALL -> helloCall();
            case HELLO_DEPLOY -> helloDeploy();
            case FAILED_DEPLOY -> failedDeploy(random.nextBoolean());
            case REGISTER -> register();
            case RENEW -> renew();
            case STACK -> today.clarityVersion() == 6 ? today.stake() : stack();
            case POISON -> nakamoto ? null : poisonMicroblock();
            case TENURE_CHANGE -> nakamoto ? null : tenureChange();
        };
        return tx != null ? tx : userTransfer(AnchorMode.ANY);
    }

    /**
     * A transaction that may travel in a microblock; an {@code anchorable} one may also be mined in
     * an anchored block (needed when its microblock is forked off and it is mined again).
     */
    GeneratedTx microblockTransaction(boolean anchorable) {
        if (anchorable || random.nextBoolean()) {
            return random.nextBoolean() ? userTransfer(AnchorMode.ANY) : deposit(AnchorMode.ANY);
        }
        return userTransfer(AnchorMode.OFF_CHAIN_ONLY);
    }

    /**
     * A transfer with a nonce far ahead of the sender's next one: it sits in the mempool until the
     * node garbage-collects it, and never changes any state here.
     */
    Encoded staleTransfer() {
        Account from = pickUser();
        Account to = otherThan(from);
        TransactionPayload payload = new TransactionPayload.TokenTransfer(to.address,
                BigInteger.valueOf(random.nextLong(1, 100) * STX), EMPTY_MEMO);
        return encode(from, from.nonce + random.nextLong(3, 30), fee(180, 2_000), null, 0, 0, AnchorMode.ANY,
                PostConditionMode.DENY, List.of(), payload);
    }
}
