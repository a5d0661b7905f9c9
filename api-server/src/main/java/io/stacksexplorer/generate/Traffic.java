package io.stacksexplorer.generate;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.AssetInfo;
import io.stacksexplorer.codec.tx.AuthField;
import io.stacksexplorer.codec.tx.FungibleConditionCode;
import io.stacksexplorer.codec.tx.HashMode;
import io.stacksexplorer.codec.tx.KeyEncoding;
import io.stacksexplorer.codec.tx.NonFungibleConditionCode;
import io.stacksexplorer.codec.tx.PostCondition;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.PostConditionPrincipal;
import io.stacksexplorer.codec.tx.SpendingCondition;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TenureChangeCause;
import io.stacksexplorer.codec.tx.TransactionEncoder;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.codec.tx.TransactionVersion;
import io.stacksexplorer.demo.DemoContracts;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
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
final class Traffic {

    static final long STX = 1_000_000L;
    static final long TOKEN = 1_000_000L;
    static final int USERS = 6_000;
    static final int MINERS = 24;
    private static final long CHAIN_ID = 1;
    private static final int NFT_BOOK = 4_096;
    private static final int NAME_BOOK = 2_048;
    static final String POX_CONTRACT = "SP000000000000000000002Q6VF78.pox";
    private static final ContractId POX = ContractId.parse(POX_CONTRACT);
    private static final long POX_FIRST_BURN_HEIGHT = 666_050L;
    private static final long POX_CYCLE_LENGTH = 2_100L;
    private static final ClarityValue OK_TRUE = new ClarityValue.ResponseOk(ClarityValue.Bool.TRUE);
    private static final String OK_TRUE_HEX = OK_TRUE.serializeHex();
    private static final String EMPTY_MEMO = Hex.encode(new byte[34]);
    private static final String[] WORDS = {"satoshi", "stacker", "clarity", "nakamoto", "orange", "bitcoin",
        "moon", "pixel", "ember", "delta", "atlas", "nova", "quartz", "lumen", "cobalt", "harbor", "zephyr", "maple"};
    private static final String[] GREETINGS = {"gm", "hello stacks", "wagmi", "building on bitcoin", "hi mom",
        "first!", "stacking sats", "clarity is neat"};

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

    private final SplittableRandom random;
    final Account[] miners = new Account[MINERS];
    final Account[] users = new Account[USERS];
    final Account hot;
    final Account labs;
    final Account studio;
    final Account sponsor;

    private final ContractId token;
    private final ContractId nft;
    private final ContractId dex;
    private final ContractId registry;
    private final String tokenAssetId;
    private final String nftAssetId;
    final String hotContract;
    private final String tokenId;
    private final String nftId;
    private final String registryId;
    private final ClarityValue dexPrincipal;
    private final AssetInfo tokenAsset;
    private final AssetInfo nftAsset;

    private long dexStx;
    private long dexToken;
    private boolean bootstrapped;
    private long lastNftId;
    private final long[] nftIds = new long[NFT_BOOK];
    private final Account[] nftOwners = new Account[NFT_BOOK];
    private int nftCount;
    private final String[] names = new String[NAME_BOOK];
    private final Account[] nameOwners = new Account[NAME_BOOK];
    private long nameCount;
    private long helloCount;
    private long steady;

    /** Burn height of the block being built (stacking and name expiry read it). */
    long burnHeight;
    /** Whether blocks follow the Nakamoto rules (epoch 3.0 and later). */
    boolean nakamoto;

    Traffic(SplittableRandom random) {
        this.random = random;
        for (int i = 0; i < MINERS; i++) {
            miners[i] = newAccount(false);
        }
        hot = newAccount(false);
        labs = newAccount(false);
        studio = newAccount(false);
        sponsor = newAccount(false);
        for (int i = 0; i < USERS; i++) {
            users[i] = newAccount(random.nextInt(100) < 3);
        }
        token = new ContractId(labs.address, DemoContracts.TOKEN.name());
        nft = new ContractId(labs.address, DemoContracts.NFT.name());
        dex = new ContractId(labs.address, DemoContracts.DEX.name());
        registry = new ContractId(studio.address, DemoContracts.REGISTRY.name());
        tokenId = token.toString();
        nftId = nft.toString();
        hotContract = dex.toString();
        registryId = registry.toString();
        tokenAssetId = tokenId + "::demo-token";
        nftAssetId = nftId + "::demo-nft";
        dexPrincipal = new ClarityValue.ContractPrincipal(dex);
        tokenAsset = new AssetInfo(token, "demo-token");
        nftAsset = new AssetInfo(nft, "demo-nft");
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
            case STACK -> stack();
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

    // --- bootstrap --------------------------------------------------------------------------------

    private int bootstrapStep;

    private GeneratedTx bootstrap() {
        GeneratedTx tx = switch (bootstrapStep++) {
            case 0 -> {
                long supply = 1_000_000_000 * TOKEN;
                labs.token += supply;
                yield deploy(labs, DemoContracts.TOKEN, OptionalInt.empty(), TxOutcome.SUCCESS, List.of(),
                        List.of(new NewEvent.FungibleAsset(AssetAction.MINT, tokenAssetId, null, labs.id,
                                BigInteger.valueOf(supply))));
            }
            case 1 -> deploy(labs, DemoContracts.NFT, OptionalInt.of(2), TxOutcome.SUCCESS, List.of(), List.of());
            case 2 -> deploy(labs, DemoContracts.DEX, OptionalInt.of(2), TxOutcome.SUCCESS, List.of(), List.of());
            case 3 -> deploy(studio, DemoContracts.REGISTRY, OptionalInt.empty(), TxOutcome.SUCCESS, List.of(),
                    List.of());
            default -> addLiquidity();
        };
        bootstrapped = bootstrapStep > 4;
        return tx;
    }

    private GeneratedTx addLiquidity() {
        long stxAmount = 2_000_000 * STX;
        long tokenAmount = 400_000_000 * TOKEN;
        Encoded tx = sign(labs, fee(10_000, 50_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(new PostCondition.Stx(new PostConditionPrincipal.Origin(), FungibleConditionCode.SENT_EQUAL_TO,
                                BigInteger.valueOf(stxAmount)),
                        new PostCondition.Fungible(new PostConditionPrincipal.Origin(), tokenAsset,
                                FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(tokenAmount))),
                call(dex, "add-liquidity", uint(stxAmount), uint(tokenAmount)));
        labs.stx -= stxAmount;
        labs.token -= tokenAmount;
        dexStx += stxAmount;
        dexToken += tokenAmount;
        return done(tx, labs, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(3), null, List.of(
                new NewEvent.StxAsset(AssetAction.TRANSFER, labs.id, hotContract, BigInteger.valueOf(stxAmount), null),
                new NewEvent.FungibleAsset(AssetAction.TRANSFER, tokenAssetId, labs.id, hotContract,
                        BigInteger.valueOf(tokenAmount)),
                log(tokenId, tuple("action", ascii("transfer"), "amount", uint(tokenAmount), "memo",
                        ClarityValue.NONE, "recipient", dexPrincipal, "sender", labs.principal)),
                log(hotContract, tuple("action", ascii("add-liquidity"), "provider", labs.principal,
                        "stx-amount", uint(stxAmount), "token-amount", uint(tokenAmount)))));
    }

    // --- STX --------------------------------------------------------------------------------------

    private GeneratedTx withdrawal(AnchorMode mode) {
        Account to = pickUser();
        long amount = random.nextLong(10, 5_000) * STX + random.nextLong(STX);
        if (hot.stx < amount + 10 * STX) {
            return deposit(mode);
        }
        return stxTransfer(hot, to, amount, EMPTY_MEMO, fee(1_000, 8_000), mode);
    }

    private GeneratedTx deposit(AnchorMode mode) {
        Account from = richUser(60 * STX);
        long amount = Math.min(random.nextLong(5, 10_000) * STX, from.stx / 3);
        return stxTransfer(from, hot, amount, memo(Long.toString(random.nextLong(10_000_000L, 99_999_999L))),
                fee(500, 3_000), mode);
    }

    private GeneratedTx userTransfer(AnchorMode mode) {
        Account from = richUser(20 * STX);
        Account to = otherThan(from);
        long amount = Math.max(1, Math.min(random.nextLong(1, 2_500) * STX + random.nextLong(STX), from.stx / 4));
        String memo = random.nextInt(100) < 30 ? memo(pick(WORDS) + " " + random.nextInt(1000)) : EMPTY_MEMO;
        // Now and then a wallet pays for the transfer through a sponsor.
        if (random.nextInt(100) < 5) {
            TransactionPayload payload = new TransactionPayload.TokenTransfer(to.address, BigInteger.valueOf(amount),
                    memo);
            Encoded tx = sign(from, 0, sponsor, fee(1_000, 5_000), mode, PostConditionMode.DENY, List.of(), payload);
            from.stx -= amount;
            to.stx += amount;
            return done(tx, from, sponsor, to, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, List.of(
                    new NewEvent.StxAsset(AssetAction.TRANSFER, from.id, to.id, BigInteger.valueOf(amount), memo)));
        }
        return stxTransfer(from, to, amount, memo, fee(180, 3_000), mode);
    }

    private GeneratedTx stxTransfer(Account from, Account to, long amount, String memo, long fee, AnchorMode mode) {
        TransactionPayload payload = new TransactionPayload.TokenTransfer(to.address, BigInteger.valueOf(amount), memo);
        Encoded replaced = null;
        if (random.nextInt(100) < 2) {
            // The wallet first sent it with a lower fee and bumped it (replace-by-fee, same nonce).
            replaced = encode(from, from.nonce, fee / 2, null, 0, 0, mode, PostConditionMode.DENY, List.of(), payload);
        }
        Encoded tx = sign(from, fee, null, 0, mode, PostConditionMode.DENY, List.of(), payload);
        from.stx -= amount;
        to.stx += amount;
        GeneratedTx mined = done(tx, from, null, to, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null,
                List.of(new NewEvent.StxAsset(AssetAction.TRANSFER, from.id, to.id, BigInteger.valueOf(amount), memo)));
        return replaced == null ? mined : withReplaced(mined, replaced);
    }

    private static GeneratedTx withReplaced(GeneratedTx tx, Encoded replaced) {
        return new GeneratedTx(tx.txId(), tx.rawTx(), tx.txType(), tx.sponsored(), tx.status(), tx.rawResult(),
                tx.cost(), tx.contractAbi(), tx.events(), tx.hot(), tx.hotLogs(), replaced);
    }

    // --- the DEX (hot contract) and the token ----------------------------------------------------

    /** A swap; a few fail on slippage (response) or on the wallet's own post condition. */
    private GeneratedTx swap(Account trader) {
        boolean stxForToken = trader.token < 20_000 * TOKEN || random.nextBoolean();
        int roll = random.nextInt(100);
        TxOutcome outcome = roll >= 6 ? TxOutcome.SUCCESS
                : roll < 4 ? TxOutcome.ABORT_BY_RESPONSE : TxOutcome.ABORT_BY_POST_CONDITION;
        long amountIn;
        long amountOut;
        if (stxForToken) {
            amountIn = Math.max(STX, Math.min(random.nextLong(10, 5_000) * STX, trader.stx / 4));
            amountOut = amountOut(amountIn, dexStx, dexToken);
        } else {
            amountIn = Math.max(TOKEN, Math.min(random.nextLong(10_000, 5_000_000) * TOKEN / 1000 * 1000,
                    trader.token / 2));
            amountOut = amountOut(amountIn, dexToken, dexStx);
        }
        long minOut = outcome == TxOutcome.ABORT_BY_RESPONSE ? amountOut + amountOut / 50 + 1
                : amountOut - amountOut / 100;
        List<PostCondition> conditions;
        if (stxForToken) {
            long promised = outcome == TxOutcome.ABORT_BY_POST_CONDITION ? amountIn - STX / 2 : amountIn;
            conditions = List.of(
                    new PostCondition.Stx(new PostConditionPrincipal.Origin(), FungibleConditionCode.SENT_EQUAL_TO,
                            BigInteger.valueOf(promised)),
                    new PostCondition.Fungible(new PostConditionPrincipal.Contract(dex), tokenAsset,
                            FungibleConditionCode.SENT_GREATER_THAN_OR_EQUAL_TO, BigInteger.valueOf(minOut)));
        } else {
            long promised = outcome == TxOutcome.ABORT_BY_POST_CONDITION ? amountIn - TOKEN / 2 : amountIn;
            conditions = List.of(
                    new PostCondition.Fungible(new PostConditionPrincipal.Standard(trader.address), tokenAsset,
                            FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(promised)),
                    new PostCondition.Stx(new PostConditionPrincipal.Contract(dex),
                            FungibleConditionCode.SENT_GREATER_THAN_OR_EQUAL_TO, BigInteger.valueOf(minOut)));
        }
        Encoded tx = sign(trader, fee(3_000, 30_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY, conditions,
                call(dex, stxForToken ? "swap-stx-for-token" : "swap-token-for-stx", uint(amountIn), uint(minOut)));
        if (outcome == TxOutcome.ABORT_BY_RESPONSE) {
            return done(tx, trader, null, null, outcome, err(201), callCost(2), null, List.of());
        }
        List<NewEvent> events = new ArrayList<>(4);
        long reserveStx = dexStx + (stxForToken ? amountIn : -amountOut);
        long reserveToken = dexToken + (stxForToken ? -amountOut : amountIn);
        if (stxForToken) {
            events.add(new NewEvent.StxAsset(AssetAction.TRANSFER, trader.id, hotContract,
                    BigInteger.valueOf(amountIn), null));
            events.add(new NewEvent.FungibleAsset(AssetAction.TRANSFER, tokenAssetId, hotContract, trader.id,
                    BigInteger.valueOf(amountOut)));
            events.add(log(tokenId, tuple("action", ascii("transfer"), "amount", uint(amountOut), "memo",
                    ClarityValue.NONE, "recipient", trader.principal, "sender", dexPrincipal)));
        } else {
            events.add(new NewEvent.FungibleAsset(AssetAction.TRANSFER, tokenAssetId, trader.id, hotContract,
                    BigInteger.valueOf(amountIn)));
            events.add(log(tokenId, tuple("action", ascii("transfer"), "amount", uint(amountIn), "memo",
                    ClarityValue.NONE, "recipient", dexPrincipal, "sender", trader.principal)));
            events.add(new NewEvent.StxAsset(AssetAction.TRANSFER, hotContract, trader.id,
                    BigInteger.valueOf(amountOut), null));
        }
        events.add(log(hotContract, tuple("action", ascii(stxForToken ? "swap-stx-for-token" : "swap-token-for-stx"),
                "amount-in", uint(amountIn), "amount-out", uint(amountOut), "pool", dexPrincipal,
                "reserves", tuple("stx", uint(reserveStx), "token", uint(reserveToken)), "sender", trader.principal)));
        ClarityValue result = new ClarityValue.ResponseOk(uint(amountOut));
        if (outcome == TxOutcome.SUCCESS) {
            dexStx = reserveStx;
            dexToken = reserveToken;
            if (stxForToken) {
                trader.stx -= amountIn;
                trader.token += amountOut;
            } else {
                trader.token -= amountIn;
                trader.stx += amountOut;
            }
            return done(tx, trader, null, null, outcome, result.serializeHex(), callCost(4), null, events);
        }
        // Post-condition failure: the node rolls the transfers back and reports them uncommitted.
        return done(tx, trader, null, null, outcome, result.serializeHex(), callCost(4), null, events);
    }

    private static long amountOut(long amountIn, long reserveIn, long reserveOut) {
        BigInteger inWithFee = BigInteger.valueOf(amountIn).multiply(BigInteger.valueOf(9_970));
        return inWithFee.multiply(BigInteger.valueOf(reserveOut))
                .divide(BigInteger.valueOf(reserveIn).multiply(BigInteger.valueOf(10_000)).add(inWithFee))
                .longValueExact();
    }

    /** SIP-010 transfers between users; some fail with (err u1), the token's insufficient balance. */
    private GeneratedTx tokenTransfer() {
        Account from = tokenHolder();
        if (from == null) {
            return null;
        }
        Account to = random.nextInt(100) < 10 ? hot : otherThan(from);
        boolean fails = random.nextInt(100) < 6;
        long amount = fails ? from.token + random.nextLong(1, 1_000) * TOKEN
                : Math.max(1, Math.min(random.nextLong(1, 50_000) * TOKEN, from.token / 2));
        ClarityValue memoArg = random.nextInt(100) < 25
                ? new ClarityValue.OptionalSome(new ClarityValue.Buffer(
                ("inv-" + random.nextInt(100_000)).getBytes(StandardCharsets.US_ASCII)))
                : ClarityValue.NONE;
        boolean allow = random.nextInt(100) < 20;
        List<PostCondition> conditions = allow ? List.of() : List.of(new PostCondition.Fungible(
                new PostConditionPrincipal.Standard(from.address), tokenAsset,
                FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(amount)));
        Encoded tx = sign(from, fee(2_000, 20_000), null, 0, AnchorMode.ANY,
                allow ? PostConditionMode.ALLOW : PostConditionMode.DENY, conditions,
                call(token, "transfer", uint(amount), from.principal, to.principal, memoArg));
        if (fails) {
            return done(tx, from, null, null, TxOutcome.ABORT_BY_RESPONSE, err(1), callCost(1), null, List.of());
        }
        from.token -= amount;
        to.token += amount;
        return done(tx, from, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(2), null, List.of(
                new NewEvent.FungibleAsset(AssetAction.TRANSFER, tokenAssetId, from.id, to.id,
                        BigInteger.valueOf(amount)),
                log(tokenId, tuple("action", ascii("transfer"), "amount", uint(amount), "memo", memoArg,
                        "recipient", to.principal, "sender", from.principal))));
    }

    private GeneratedTx tokenMint(Account to, long amount) {
        Encoded tx = sign(labs, fee(5_000, 20_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY, List.of(),
                call(token, "mint", uint(amount), to.principal));
        to.token += amount;
        return done(tx, labs, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(2), null, List.of(
                new NewEvent.FungibleAsset(AssetAction.MINT, tokenAssetId, null, to.id, BigInteger.valueOf(amount)),
                log(tokenId, tuple("action", ascii("mint"), "amount", uint(amount), "recipient", to.principal))));
    }

    private GeneratedTx tokenBurn() {
        Account from = tokenHolder();
        if (from == null) {
            return null;
        }
        long amount = Math.max(1, from.token / 10);
        Encoded tx = sign(from, fee(2_000, 10_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(new PostCondition.Fungible(new PostConditionPrincipal.Origin(), tokenAsset,
                        FungibleConditionCode.SENT_LESS_THAN_OR_EQUAL_TO, BigInteger.valueOf(amount))),
                call(token, "burn", uint(amount)));
        from.token -= amount;
        return done(tx, from, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(2), null, List.of(
                new NewEvent.FungibleAsset(AssetAction.BURN, tokenAssetId, from.id, null, BigInteger.valueOf(amount)),
                log(tokenId, tuple("action", ascii("burn"), "amount", uint(amount), "sender", from.principal))));
    }

    // --- NFTs -------------------------------------------------------------------------------------

    private GeneratedTx nftClaim() {
        Account user = richUser(50 * STX);
        long price = 10 * STX;
        Encoded tx = sign(user, fee(3_000, 15_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(new PostCondition.Stx(new PostConditionPrincipal.Origin(), FungibleConditionCode.SENT_EQUAL_TO,
                        BigInteger.valueOf(price))), call(nft, "claim"));
        long id = ++lastNftId;
        user.stx -= price;
        // A capped book of recent tokens: when full, an old token simply never moves again.
        int slot = nftCount < NFT_BOOK ? nftCount++ : random.nextInt(NFT_BOOK);
        nftIds[slot] = id;
        nftOwners[slot] = user;
        return done(tx, user, null, null, TxOutcome.SUCCESS, new ClarityValue.ResponseOk(uint(id)).serializeHex(),
                callCost(3), null, List.of(
                        new NewEvent.StxAsset(AssetAction.TRANSFER, user.id, nftId, BigInteger.valueOf(price), null),
                        new NewEvent.NonFungibleAsset(AssetAction.MINT, nftAssetId, null, user.id,
                                uint(id).serializeHex()),
                        log(nftId, tuple("action", ascii("mint"), "id", uint(id), "owner", user.principal, "uri",
                                new ClarityValue.OptionalSome(ascii("ipfs://bafybeigdemopunks/metadata.json"))))));
    }

    /** NFT transfers; now and then the wallet's own "must not leave" condition aborts one. */
    private GeneratedTx nftTransfer() {
        if (nftCount == 0) {
            return null;
        }
        int slot = random.nextInt(nftCount);
        long id = nftIds[slot];
        Account from = nftOwners[slot];
        Account to = random.nextInt(100) < 5 ? hot : otherThan(from);
        boolean abort = random.nextInt(100) < 8;
        Encoded tx = sign(from, fee(2_000, 12_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(new PostCondition.NonFungible(new PostConditionPrincipal.Standard(from.address), nftAsset,
                        uint(id), abort ? NonFungibleConditionCode.NOT_SENT : NonFungibleConditionCode.SENT)),
                call(nft, "transfer", uint(id), from.principal, to.principal));
        List<NewEvent> events = List.of(
                new NewEvent.NonFungibleAsset(AssetAction.TRANSFER, nftAssetId, from.id, to.id,
                        uint(id).serializeHex()),
                log(nftId, tuple("action", ascii("transfer"), "id", uint(id), "recipient", to.principal,
                        "sender", from.principal)));
        if (abort) {
            return done(tx, from, null, null, TxOutcome.ABORT_BY_POST_CONDITION, OK_TRUE_HEX, callCost(2), null,
                    events);
        }
        nftOwners[slot] = to;
        return done(tx, from, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(2), null, events);
    }

    private GeneratedTx nftBurn() {
        if (nftCount == 0) {
            return null;
        }
        int slot = random.nextInt(nftCount);
        long id = nftIds[slot];
        Account owner = nftOwners[slot];
        nftCount--;
        nftIds[slot] = nftIds[nftCount];
        nftOwners[slot] = nftOwners[nftCount];
        Encoded tx = sign(owner, fee(2_000, 12_000), null, 0, AnchorMode.ANY, PostConditionMode.ALLOW, List.of(),
                call(nft, "burn", uint(id)));
        return done(tx, owner, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(2), null, List.of(
                new NewEvent.NonFungibleAsset(AssetAction.BURN, nftAssetId, owner.id, null, uint(id).serializeHex()),
                log(nftId, new ClarityValue.StringUtf8("burned \ud83d\udd25"))));
    }

    // --- small contracts ----------------------------------------------------------------------------

    /** The deployer of hello-world-k is a function of k, so no list of deployments is kept. */
    private Account helloDeployer(long k) {
        return users[(int) Math.floorMod(k * 2_654_435_761L, (long) USERS)];
    }

    private GeneratedTx helloDeploy() {
        long k = ++helloCount;
        int version = k % 2 == 0 ? 2 : 1;
        DemoContracts.Contract contract = DemoContracts.hello("hello-world-" + k, version);
        return deploy(helloDeployer(k), contract, version == 2 ? OptionalInt.of(2) : OptionalInt.empty(),
                TxOutcome.SUCCESS, List.of(), List.of());
    }

    private GeneratedTx helloCall() {
        if (helloCount == 0) {
            return helloDeploy();
        }
        long k = 1 + random.nextLong(helloCount);
        ContractId contract = new ContractId(helloDeployer(k).address, "hello-world-" + k);
        Account caller = richUser(STX);
        String message = pick(GREETINGS);
        boolean sponsored = random.nextInt(100) < 20;
        Encoded tx = sign(caller, sponsored ? 0 : fee(1_000, 6_000), sponsored ? sponsor : null,
                sponsored ? fee(2_000, 8_000) : 0, AnchorMode.ANY, PostConditionMode.DENY, List.of(),
                call(contract, "say-hi", ascii(message)));
        long counter = 1 + random.nextLong(500);
        return done(tx, caller, sponsored ? sponsor : null, null, TxOutcome.SUCCESS,
                new ClarityValue.ResponseOk(uint(counter)).serializeHex(), callCost(1), null,
                List.of(log(contract.toString(), ascii(message))));
    }

    /** A deployment whose top-level code fails: at runtime (response) or on the deployer's own post condition. */
    private GeneratedTx failedDeploy(boolean atRuntime) {
        Account deployer = richUser(20 * STX);
        if (atRuntime) {
            return deploy(deployer, new DemoContracts.Contract(DemoContracts.VAULT_NAME, DemoContracts.VAULT_SOURCE,
                    null), OptionalInt.empty(), TxOutcome.ABORT_BY_RESPONSE, List.of(), List.of());
        }
        return deploy(deployer, new DemoContracts.Contract(DemoContracts.LAUNCHPAD_NAME,
                        DemoContracts.LAUNCHPAD_SOURCE, null), OptionalInt.empty(), TxOutcome.ABORT_BY_POST_CONDITION,
                List.of(new PostCondition.Stx(new PostConditionPrincipal.Origin(),
                        FungibleConditionCode.SENT_LESS_THAN_OR_EQUAL_TO, BigInteger.valueOf(STX))),
                List.of(new NewEvent.StxAsset(AssetAction.TRANSFER, deployer.id,
                        deployer.id + "." + DemoContracts.LAUNCHPAD_NAME, BigInteger.valueOf(5 * STX), null)));
    }

    private GeneratedTx deploy(Account deployer, DemoContracts.Contract contract, OptionalInt clarityVersion,
                               TxOutcome outcome, List<PostCondition> conditions, List<NewEvent> events) {
        Encoded tx = sign(deployer, fee(50_000, 600_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                conditions, new TransactionPayload.SmartContract(contract.name(), contract.source(), clarityVersion));
        String result = outcome == TxOutcome.ABORT_BY_RESPONSE
                ? new ClarityValue.ResponseErr(ClarityValue.NONE).serializeHex() : OK_TRUE_HEX;
        return done(tx, deployer, null, null, outcome, result, deployCost(contract.source().length()),
                outcome == TxOutcome.SUCCESS ? contract.abi() : null, events);
    }

    /** name-registry registrations (half of them sponsored); a taken name fails with (err u409). */
    private GeneratedTx register() {
        Account user = richUser(10 * STX);
        boolean taken = nameCount > 0 && random.nextInt(100) < 10;
        String name = taken ? names[random.nextInt((int) Math.min(nameCount, NAME_BOOK))]
                : pick(WORDS) + "-" + nameCount;
        ClarityValue bio = random.nextInt(100) < 60
                ? new ClarityValue.OptionalSome(new ClarityValue.StringUtf8("gm \u2600\ufe0f")) : ClarityValue.NONE;
        ClarityValue tags = new ClarityValue.ListValue(random.nextBoolean() ? List.of(ascii("defi"))
                : List.of(ascii("nft"), ascii("builder")));
        boolean sponsored = random.nextBoolean();
        Encoded tx = sign(user, sponsored ? 0 : fee(3_000, 20_000), sponsored ? sponsor : null,
                sponsored ? fee(5_000, 25_000) : 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(new PostCondition.Stx(new PostConditionPrincipal.Origin(), FungibleConditionCode.SENT_EQUAL_TO,
                        BigInteger.valueOf(2 * STX))),
                call(registry, "register", ascii(name), bio, tags));
        Account payer = sponsored ? sponsor : null;
        if (taken) {
            return done(tx, user, payer, null, TxOutcome.ABORT_BY_RESPONSE, err(409), callCost(1), null, List.of());
        }
        int slot = (int) (nameCount++ % NAME_BOOK);
        names[slot] = name;
        nameOwners[slot] = user;
        user.stx -= 2 * STX;
        return done(tx, user, payer, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(3), null, List.of(
                new NewEvent.StxAsset(AssetAction.BURN, user.id, null, BigInteger.valueOf(2 * STX), null),
                log(registryId, tuple("bio", bio, "event", ascii("name-registered"), "expires-at",
                        uint(burnHeight + 52_560), "name", ascii(name), "owner", user.principal, "tags", tags))));
    }

    private GeneratedTx renew() {
        if (nameCount == 0) {
            return null;
        }
        int slot = random.nextInt((int) Math.min(nameCount, NAME_BOOK));
        Account owner = nameOwners[slot];
        Encoded tx = sign(owner, fee(3_000, 12_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY, List.of(),
                call(registry, "renew", ascii(names[slot])));
        return done(tx, owner, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(2), null, List.of(
                log(registryId, new ClarityValue.ResponseOk(tuple("expires-at", uint(burnHeight + 2 * 52_560),
                        "extended-by", ClarityValue.Int.of(52_560), "name", ascii(names[slot]))))));
    }

    /** PoX stacking: locks STX until the end of the chosen number of reward cycles. */
    private GeneratedTx stack() {
        Account stacker = richUser(150_000 * STX);
        if (stacker.stx < 150_000 * STX) {
            return null;
        }
        long amount = random.nextLong(100_000, 150_000) * STX;
        long lockPeriod = random.nextLong(1, 13);
        long startBurnHeight = burnHeight + 1;
        long cycle = (startBurnHeight - POX_FIRST_BURN_HEIGHT) / POX_CYCLE_LENGTH;
        long unlockHeight = POX_FIRST_BURN_HEIGHT + (cycle + 1 + lockPeriod) * POX_CYCLE_LENGTH;
        ClarityValue poxAddress = tuple("hashbytes", new ClarityValue.Buffer(bytes(20)),
                "version", new ClarityValue.Buffer(new byte[]{0x04}));
        Encoded tx = sign(stacker, fee(10_000, 50_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY, List.of(),
                call(POX, "stack-stx", uint(amount), poxAddress, uint(startBurnHeight), uint(lockPeriod)));
        ClarityValue result = new ClarityValue.ResponseOk(tuple("lock-amount", uint(amount),
                "stacker", stacker.principal, "unlock-burn-height", uint(unlockHeight)));
        return done(tx, stacker, null, null, TxOutcome.SUCCESS, result.serializeHex(), callCost(8), null,
                List.of(new NewEvent.StxLock(BigInteger.valueOf(amount), unlockHeight, stacker.id)));
    }

    private GeneratedTx poisonMicroblock() {
        Account reporter = richUser(10 * STX);
        String parent = hash32();
        String signature = "0x00" + Hex.encodeBare(bytes(64));
        Encoded tx = sign(reporter, fee(2_000, 5_000), null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY,
                List.of(), new TransactionPayload.PoisonMicroblock(
                        TransactionEncoder.microblockHeader(0, 1, parent, hash32(), signature),
                        TransactionEncoder.microblockHeader(0, 1, parent, hash32(), signature)));
        return done(tx, reporter, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, List.of());
    }

    private GeneratedTx tenureChange() {
        Account miner = miners[random.nextInt(MINERS)];
        Encoded tx = sign(miner, 0, null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY, List.of(),
                new TransactionPayload.TenureChange(hex(20), hex(20), hex(20), hash32(), 1,
                        random.nextBoolean() ? TenureChangeCause.BLOCK_FOUND : TenureChangeCause.EXTENDED,
                        miner.hash160Hex));
        return done(tx, miner, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, List.of());
    }

    // --- transaction plumbing -------------------------------------------------------------------

    /** Signs for the origin's (and sponsor's) next nonce and advances it. */
    private Encoded sign(Account origin, long fee, Account sponsorAccount, long sponsorFee, AnchorMode anchorMode,
                         PostConditionMode mode, List<PostCondition> conditions, TransactionPayload payload) {
        Encoded tx = encode(origin, origin.nonce, fee, sponsorAccount,
                sponsorAccount == null ? 0 : sponsorAccount.nonce, sponsorFee, anchorMode, mode, conditions, payload);
        origin.nonce++;
        if (sponsorAccount != null) {
            sponsorAccount.nonce++;
            sponsorAccount.stx -= sponsorFee;
        } else {
            origin.stx -= fee;
        }
        return tx;
    }

    private Encoded encode(Account origin, long nonce, long fee, Account sponsorAccount, long sponsorNonce,
                           long sponsorFee, AnchorMode anchorMode, PostConditionMode mode,
                           List<PostCondition> conditions, TransactionPayload payload) {
        SpendingCondition originCondition = condition(origin, nonce, fee);
        Optional<SpendingCondition> sponsorCondition = sponsorAccount == null ? Optional.empty()
                : Optional.of(condition(sponsorAccount, sponsorNonce, sponsorFee));
        byte[] raw = TransactionEncoder.encode(new StacksTransaction("0x", TransactionVersion.MAINNET, CHAIN_ID,
                originCondition, sponsorCondition, anchorMode, mode, conditions, payload));
        return new Encoded(Sha512_256.txId(raw), Hex.encode(raw), payload.txType(), sponsorAccount != null);
    }

    /** Signatures are random bytes: nobody here verifies them, the node already did. */
    private SpendingCondition condition(Account account, long nonce, long fee) {
        if (account.multiSig) {
            List<AuthField> fields = List.of(
                    new AuthField(AuthField.Type.SIGNATURE_COMPRESSED, signature()),
                    new AuthField(AuthField.Type.SIGNATURE_COMPRESSED, signature()),
                    new AuthField(AuthField.Type.PUBLIC_KEY_COMPRESSED, "0x0" + (2 + random.nextInt(2))
                            + Hex.encodeBare(bytes(32))));
            return new SpendingCondition.MultiSig(HashMode.P2SH, account.hash160Hex, BigInteger.valueOf(nonce),
                    BigInteger.valueOf(fee), fields, 2);
        }
        return new SpendingCondition.SingleSig(HashMode.P2PKH, account.hash160Hex, BigInteger.valueOf(nonce),
                BigInteger.valueOf(fee), KeyEncoding.COMPRESSED, signature());
    }

    /** A recoverable signature: recovery id then 64 bytes. */
    private String signature() {
        return "0x0" + random.nextInt(2) + Hex.encodeBare(bytes(64));
    }

    /**
     * The mined transaction. Whether the hot address takes part follows the API's rule: sender,
     * sponsor, token-transfer recipient, or a party of a committed asset event.
     */
    private GeneratedTx done(Encoded tx, Account origin, Account sponsorAccount, Account recipient, TxOutcome outcome,
                             String rawResult, ExecutionCost cost, String abi, List<NewEvent> events) {
        boolean committed = outcome == TxOutcome.SUCCESS;
        boolean isHot = origin == hot || sponsorAccount == hot || recipient == hot;
        int hotLogs = 0;
        if (committed) {
            for (NewEvent e : events) {
                if (e instanceof NewEvent.ContractLog log) {
                    if (log.contractId().equals(hotContract)) {
                        hotLogs++;
                    }
                } else if (!isHot) {
                    isHot = involves(e, hot.id);
                }
            }
        }
        return new GeneratedTx(tx.txId(), tx.rawTx(), tx.txType(), tx.sponsored(), outcome, rawResult, cost, abi,
                events, isHot, hotLogs, null);
    }

    private static boolean involves(NewEvent e, String principal) {
        if (e instanceof NewEvent.StxAsset a) {
            return principal.equals(a.sender()) || principal.equals(a.recipient());
        } else if (e instanceof NewEvent.FungibleAsset a) {
            return principal.equals(a.sender()) || principal.equals(a.recipient());
        } else if (e instanceof NewEvent.NonFungibleAsset a) {
            return principal.equals(a.sender()) || principal.equals(a.recipient());
        } else if (e instanceof NewEvent.StxLock l) {
            return principal.equals(l.lockedAddress());
        }
        return false;
    }

    private static TransactionPayload call(ContractId contract, String function, ClarityValue... args) {
        return new TransactionPayload.ContractCall(contract, function, List.of(args));
    }

    private static NewEvent log(String contractId, ClarityValue value) {
        return new NewEvent.ContractLog(contractId, "print", value.serializeHex());
    }

    private ExecutionCost callCost(int weight) {
        return new ExecutionCost(random.nextLong(3, 8) * weight, random.nextLong(1_500, 6_000) * weight,
                random.nextLong(20_000, 120_000) * weight, random.nextLong(1, 3) * weight,
                random.nextLong(50, 400) * weight);
    }

    private ExecutionCost deployCost(int sourceLength) {
        return new ExecutionCost(random.nextLong(4, 12), random.nextLong(2_000, 8_000),
                sourceLength * random.nextLong(40, 90), random.nextLong(2, 6), sourceLength * 2L + 120);
    }

    // --- values and randomness ----------------------------------------------------------------------

    private static ClarityValue uint(long value) {
        return ClarityValue.UInt.of(value);
    }

    private static String err(long code) {
        return new ClarityValue.ResponseErr(uint(code)).serializeHex();
    }

    private static ClarityValue ascii(String text) {
        return new ClarityValue.StringAscii(text);
    }

    private static ClarityValue tuple(Object... namesAndValues) {
        return ClarityValue.Tuple.sorted(namesAndValues);
    }

    private static String memo(String text) {
        return TransactionPayload.TokenTransfer.memoOf(text);
    }

    private Account newAccount(boolean multiSig) {
        return new Account(new StacksAddress(multiSig ? StacksAddress.MAINNET_MULTI_SIG
                : StacksAddress.MAINNET_SINGLE_SIG, bytes(20)));
    }

    /** Users are not equally busy: the low indices are picked far more often. */
    Account pickUser() {
        double u = random.nextDouble();
        return users[(int) (u * u * USERS)];
    }

    private Account richUser(long minimum) {
        for (int i = 0; i < 20; i++) {
            Account user = pickUser();
            if (user.stx >= minimum) {
                return user;
            }
        }
        // Nobody rich enough in a few draws: the generator believes one user got funds from outside
        // (balances here only keep amounts plausible; the API never sees them).
        Account user = pickUser();
        user.stx += minimum * 10;
        return user;
    }

    private Account tokenHolder() {
        for (int i = 0; i < 20; i++) {
            Account user = pickUser();
            if (user.token >= TOKEN && user.stx >= 10 * STX) {
                return user;
            }
        }
        return null;
    }

    private Account otherThan(Account account) {
        Account other = pickUser();
        while (other == account) {
            other = users[random.nextInt(USERS)];
        }
        return other;
    }

    private String pick(String[] items) {
        return items[random.nextInt(items.length)];
    }

    private long fee(long min, long max) {
        return random.nextLong(min, max);
    }

    byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    String hash32() {
        return Hex.encode(bytes(32));
    }

    private String hex(int length) {
        return Hex.encode(bytes(length));
    }
}
