package io.stacksexplorer.demo;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.AssetInfo;
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
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewBlock;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewMempoolTransaction;
import io.stacksexplorer.write.NewTransaction;
import io.stacksexplorer.write.TxOutcome;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * Builds the demo chain block by block. All randomness comes from one {@link SplittableRandom}, and every
 * collection that is iterated is ordered, so a seed always gives the same bytes. Balances are tracked
 * so that nobody spends what they do not have, which keeps derived balances plausible.
 */
final class DemoChainBuilder {

    static final long GENESIS_TIME = 1_704_067_200L; // 2024-01-01T00:00:00Z
    static final int BLOCK_COUNT = 300;
    static final long FIRST_BURN_HEIGHT = 830_000L;
    static final int MEMPOOL_SIZE = 30;

    private static final long STX = 1_000_000L;
    private static final long TOKEN = 1_000_000L; // demo-token has 6 decimals
    private static final long CHAIN_ID = 1;
    private static final String ZERO_HASH = "0x" + "00".repeat(32);
    private static final ContractId POX = ContractId.parse("SP000000000000000000002Q6VF78.pox");
    private static final long POX_FIRST_BURN_HEIGHT = 666_050L;
    private static final long POX_CYCLE_LENGTH = 2_100L;
    private static final ClarityValue OK_TRUE = new ClarityValue.ResponseOk(ClarityValue.Bool.TRUE);
    private static final ClarityValue ERR_NONE = new ClarityValue.ResponseErr(ClarityValue.NONE);
    private static final String[] WORDS = {"satoshi", "stacker", "clarity", "nakamoto", "orange", "bitcoin",
        "moon", "pixel", "ember", "delta", "atlas", "nova", "quartz", "lumen", "cobalt", "harbor", "zephyr", "maple"};
    private static final String[] TAGS = {"defi", "nft", "dao", "gaming", "art", "builder", "stacking", "music"};
    private static final String[] BIOS = {"gm \u2600\ufe0f", "Building on Bitcoin \u20bf",
        "Stacking since cycle 50", "NFT collector \ud83c\udfa8", "Clarity dev, coffee first \u2615", "\u65e5\u672c\u8a9e OK"};

    /** A signing account; balances are what the generator believes it holds, to keep spends possible. */
    static final class Account {
        final StacksAddress address;
        final String id;
        long nonce;
        long stx;
        long token;

        Account(StacksAddress address) {
            this.address = address;
            this.id = address.toString();
        }
    }

    private final SplittableRandom random;
    private final List<NewBlock> blocks = new ArrayList<>();
    private final List<NewMempoolTransaction> mempool = new ArrayList<>();

    private final List<Account> miners = new ArrayList<>();
    private final List<Account> users = new ArrayList<>();
    private final Account exchange;
    private final Account trader;
    private final Account deposits;
    private final Account labs;
    private final Account studio;
    private final Account sponsor;
    private final List<Account> stackers = new ArrayList<>();

    private final ContractId token;
    private final ContractId nft;
    private final ContractId dex;
    private final ContractId registry;
    private final String tokenAssetId;
    private final String nftAssetId;
    private final String dexId;
    private final String nftContractId;

    private long dexStx;
    private long dexToken;
    private long lastNftId;
    private final Map<Long, Account> nftOwners = new LinkedHashMap<>();
    private final Map<String, Account> names = new LinkedHashMap<>();
    private int helloCount;

    // The block being built.
    private long height;
    private long blockTime;
    private List<NewTransaction> txs;
    private String microblockHash;
    private int microblockSequence;
    private String previousIndexBlockHash;

    DemoChainBuilder(long seed) {
        this.random = new SplittableRandom(seed);
        for (int i = 0; i < 6; i++) {
            miners.add(newAccount());
        }
        exchange = newAccount();
        trader = newAccount();
        deposits = newAccount();
        labs = newAccount();
        studio = newAccount();
        sponsor = newAccount();
        for (int i = 0; i < 240; i++) {
            users.add(newAccount());
        }
        for (int i = 0; i < 6; i++) {
            stackers.add(users.get(i * 37 + 3));
        }
        token = new ContractId(labs.address, DemoContracts.TOKEN.name());
        nft = new ContractId(labs.address, DemoContracts.NFT.name());
        dex = new ContractId(labs.address, DemoContracts.DEX.name());
        registry = new ContractId(studio.address, DemoContracts.REGISTRY.name());
        tokenAssetId = token + "::demo-token";
        nftAssetId = nft + "::demo-nft";
        dexId = dex.toString();
        nftContractId = nft.toString();
    }

    List<NewBlock> blocks() {
        return blocks;
    }

    List<NewMempoolTransaction> mempool() {
        return mempool;
    }

    List<String> hotAddresses() {
        return List.of(exchange.id, trader.id, deposits.id);
    }

    String tokenAssetId() {
        return tokenAssetId;
    }

    String nftAssetId() {
        return nftAssetId;
    }

    String failedDeploymentContractId() {
        return new ContractId(studio.address, DemoContracts.VAULT_NAME).toString();
    }

    DemoChainBuilder build() {
        for (long h = 1; h <= BLOCK_COUNT; h++) {
            buildBlock(h);
        }
        buildMempool();
        return this;
    }

    // --- blocks -------------------------------------------------------------------------------------

    private void buildBlock(long h) {
        height = h;
        long previousTime = blocks.isEmpty() ? GENESIS_TIME - 600 : blocks.get(blocks.size() - 1).burnBlockTime();
        blockTime = h == 1 ? GENESIS_TIME : GENESIS_TIME + (h - 1) * 600 + random.nextInt(-120, 121);
        blockTime = Math.max(blockTime, previousTime + 60);
        txs = new ArrayList<>();

        String parentMicroblock = ZERO_HASH;
        int parentMicroblockSequence = 0;
        if (h % 15 == 0) {
            // This block confirms the stream its parent's miner produced: those transactions come first.
            for (int sequence = 0; sequence < 2; sequence++) {
                microblockHash = hash32();
                microblockSequence = sequence;
                for (int i = 0; i < 2; i++) {
                    if (i == 0) {
                        userTransfer(AnchorMode.OFF_CHAIN_ONLY);
                    } else {
                        deposit(AnchorMode.ANY);
                    }
                }
                parentMicroblock = microblockHash;
                parentMicroblockSequence = sequence;
            }
            microblockHash = null;
        }

        Account miner = miners.get((int) (h % miners.size()));
        coinbase(miner, h);
        scheduled(h, miner);
        traffic(h);

        String blockHash = hash32();
        byte[] consensusHash = bytes(20);
        byte[] indexInput = new byte[52];
        System.arraycopy(Hex.decode(blockHash), 0, indexInput, 0, 32);
        System.arraycopy(consensusHash, 0, indexInput, 32, 20);
        String indexBlockHash = Sha512_256.txId(indexInput);
        NewBlock parent = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
        byte[] burnHash = bytes(32);
        Arrays.fill(burnHash, 0, 9, (byte) 0); // Bitcoin block hashes start with zeros
        blocks.add(new NewBlock(blockHash, indexBlockHash, h,
                parent == null ? ZERO_HASH : parent.blockHash(),
                parent == null ? ZERO_HASH : parent.indexBlockHash(),
                parentMicroblock, parentMicroblockSequence, blockTime, blockTime, Hex.encode(burnHash),
                FIRST_BURN_HEIGHT + h - 1, previousTime, hash32(), txs));
        previousIndexBlockHash = indexBlockHash;
    }

    private void coinbase(Account miner, long h) {
        Optional<Principal> altRecipient = Optional.empty();
        if (h % 25 == 7) {
            altRecipient = Optional.of(h == 7 ? new ContractId(miners.get(0).address, "mining-pool")
                    : pick(users).address);
        }
        TransactionPayload payload = new TransactionPayload.Coinbase(hash32(), altRecipient, Optional.empty());
        StacksTransaction tx = sign(miner, 0, null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY,
                List.of(), payload);
        List<NewEvent> events = new ArrayList<>();
        if (h == 1) {
            // Genesis allocations, which the node reports with the first block.
            mint(events, exchange, 30_000_000 * STX);
            mint(events, trader, 5_000_000 * STX);
            mint(events, deposits, 100_000 * STX);
            mint(events, labs, 2_000_000 * STX);
            mint(events, studio, 500_000 * STX);
            mint(events, sponsor, 250_000 * STX);
            for (Account user : users) {
                long amount = stackers.contains(user) ? 400_000 * STX : random.nextLong(500, 150_000) * STX;
                mint(events, user, amount);
            }
        }
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, ExecutionCost.ZERO, null, events);
    }

    private void mint(List<NewEvent> events, Account to, long amount) {
        to.stx += amount;
        events.add(new NewEvent.StxAsset(NewEvent.AssetAction.MINT, null, to.id, BigInteger.valueOf(amount), null));
    }

    /** One-off transactions at fixed heights: deploys, failures, stacking, poison, tenure changes. */
    private void scheduled(long h, Account miner) {
        switch ((int) h) {
            case 2 -> {
                List<NewEvent> events = new ArrayList<>();
                labs.token += 1_000_000_000 * TOKEN;
                events.add(new NewEvent.FungibleAsset(NewEvent.AssetAction.MINT, tokenAssetId, null, labs.id,
                        BigInteger.valueOf(1_000_000_000 * TOKEN)));
                deploy(labs, DemoContracts.TOKEN, OptionalInt.empty(), TxOutcome.SUCCESS, events, List.of());
            }
            case 3 -> deploy(labs, DemoContracts.NFT, OptionalInt.of(2), TxOutcome.SUCCESS, List.of(), List.of());
            case 4 -> {
                deploy(labs, DemoContracts.DEX, OptionalInt.of(2), TxOutcome.SUCCESS, List.of(), List.of());
                deploy(studio, DemoContracts.REGISTRY, OptionalInt.empty(), TxOutcome.SUCCESS, List.of(), List.of());
            }
            case 5 -> addLiquidity();
            case 6 -> deploy(studio, new DemoContracts.Contract(DemoContracts.VAULT_NAME, DemoContracts.VAULT_SOURCE,
                    null), OptionalInt.empty(), TxOutcome.ABORT_BY_RESPONSE, List.of(), List.of());
            case 7 -> deploy(labs, new DemoContracts.Contract(DemoContracts.AIRDROP_NAME,
                            DemoContracts.AIRDROP_BROKEN_SOURCE, null), OptionalInt.of(2), TxOutcome.ABORT_BY_RESPONSE,
                    List.of(), List.of());
            case 8 -> deploy(studio, new DemoContracts.Contract(DemoContracts.LAUNCHPAD_NAME,
                            DemoContracts.LAUNCHPAD_SOURCE, null), OptionalInt.empty(),
                    TxOutcome.ABORT_BY_POST_CONDITION, List.of(), List.of(new PostCondition.Stx(
                            new PostConditionPrincipal.Origin(), FungibleConditionCode.SENT_LESS_THAN_OR_EQUAL_TO,
                            BigInteger.valueOf(STX))));
            case 9 -> deploy(labs, DemoContracts.AIRDROP, OptionalInt.of(2), TxOutcome.SUCCESS, List.of(), List.of());
            case 10 -> {
                for (int i = 0; i < 12; i++) {
                    tokenMint(users.get(i * 19 + 1), random.nextLong(10_000, 2_000_000) * TOKEN);
                }
            }
            case 150 -> poisonMicroblock();
            case 299, 300 -> tenureChange(miner, h == 299 ? TenureChangeCause.BLOCK_FOUND : TenureChangeCause.EXTENDED);
            default -> {
            }
        }
        if (h % 50 == 40) {
            stackStx(stackers.get((int) (h / 50)), false);
        }
        if (h % 40 == 20) {
            register(pick(users), true, false);
        }
        if (h % 30 == 15) {
            deployHello(pick(users), false);
        }
    }

    /** The steady traffic: three hot accounts plus ordinary users. */
    private void traffic(long h) {
        int withdrawals = random.nextInt(7, 11);
        for (int i = 0; i < withdrawals; i++) {
            withdrawal(AnchorMode.ANY);
        }
        int depositCount = random.nextInt(7, 11);
        for (int i = 0; i < depositCount; i++) {
            deposit(AnchorMode.ANY);
        }
        if (h % 10 == 0) {
            sweep();
        }
        if (h >= 6) {
            int swaps = random.nextInt(7, 11);
            for (int i = 0; i < swaps; i++) {
                swap(false);
            }
        }
        int transfers = random.nextInt(2, 5);
        for (int i = 0; i < transfers; i++) {
            userTransfer(AnchorMode.ANY);
        }
        if (h > 10) {
            int tokenTransfers = random.nextInt(1, 4);
            for (int i = 0; i < tokenTransfers; i++) {
                tokenTransfer(false);
            }
            if (h % 7 == 0) {
                tokenBurn();
            }
            if (random.nextInt(100) < 70) {
                nftClaim(false);
            }
            if (random.nextInt(100) < 35) {
                nftTransfer();
            }
            if (random.nextInt(100) < 6) {
                nftBurn();
            }
            if (random.nextInt(100) < 30) {
                register(pick(users), false, false);
            }
            if (random.nextInt(100) < 10) {
                renew();
            }
            if (random.nextInt(100) < 8) {
                setPrimary();
            }
        }
    }

    // --- STX ----------------------------------------------------------------------------------------

    private void withdrawal(AnchorMode mode) {
        Account to = pick(users);
        long amount = random.nextLong(10, 5_000) * STX + random.nextLong(STX);
        stxTransfer(exchange, to, amount, memo(""), fee(1_000, 8_000), mode);
    }

    private void deposit(AnchorMode mode) {
        Account from = richUser(50 * STX);
        long amount = Math.min(random.nextLong(5, 10_000) * STX, from.stx / 3);
        stxTransfer(from, deposits, amount, memo(Long.toString(random.nextLong(10_000_000L, 99_999_999L))),
                fee(500, 3_000), mode);
    }

    private void sweep() {
        long amount = (deposits.stx - 50_000 * STX) / STX * STX;
        if (amount > 0) {
            stxTransfer(deposits, exchange, amount, memo("sweep"), fee(2_000, 3_000), AnchorMode.ON_CHAIN_ONLY);
        }
    }

    private void userTransfer(AnchorMode mode) {
        Account from = richUser(20 * STX);
        Account to = otherThan(from);
        long amount = Math.min(random.nextLong(1, 2_500) * STX + random.nextLong(STX), from.stx / 4);
        String memo = random.nextInt(100) < 30 ? memo(pick(WORDS) + " " + random.nextInt(1000)) : memo("");
        stxTransfer(from, to, amount, memo, fee(180, 3_000), mode);
    }

    private void stxTransfer(Account from, Account to, long amount, String memo, long fee, AnchorMode mode) {
        TransactionPayload payload = new TransactionPayload.TokenTransfer(to.address, BigInteger.valueOf(amount), memo);
        StacksTransaction tx = sign(from, fee, null, 0, mode, PostConditionMode.DENY, List.of(), payload);
        from.stx -= amount;
        to.stx += amount;
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, ExecutionCost.ZERO, null, List.of(new NewEvent.StxAsset(
                NewEvent.AssetAction.TRANSFER, from.id, to.id, BigInteger.valueOf(amount), memo)));
    }

    // --- contracts ----------------------------------------------------------------------------------

    private void deploy(Account deployer, DemoContracts.Contract contract, OptionalInt clarityVersion,
                        TxOutcome outcome, List<NewEvent> events, List<PostCondition> conditions) {
        TransactionPayload payload = new TransactionPayload.SmartContract(contract.name(), contract.source(),
                clarityVersion);
        StacksTransaction tx = sign(deployer, fee(50_000, 600_000), null, 0, AnchorMode.ANY,
                PostConditionMode.DENY, conditions, payload);
        ClarityValue result = outcome == TxOutcome.ABORT_BY_RESPONSE ? ERR_NONE : OK_TRUE;
        mined(tx, outcome, result, deployCost(contract.source().length()),
                outcome == TxOutcome.SUCCESS ? contract.abi() : null,
                outcome == TxOutcome.SUCCESS ? events : List.of());
    }

    private void deployHello(Account deployer, boolean pending) {
        helloCount++;
        int version = helloCount % 2 == 0 ? 2 : 1;
        DemoContracts.Contract contract = DemoContracts.hello("hello-world-" + helloCount, version);
        OptionalInt clarity = version == 2 ? OptionalInt.of(2) : OptionalInt.empty();
        if (pending) {
            pending(deployer, fee(20_000, 200_000), null, 0, PostConditionMode.DENY, List.of(),
                    new TransactionPayload.SmartContract(contract.name(), contract.source(), clarity));
        } else {
            deploy(deployer, contract, clarity, TxOutcome.SUCCESS, List.of(), List.of());
        }
    }

    private void addLiquidity() {
        long stxAmount = 500_000 * STX;
        long tokenAmount = 400_000_000 * TOKEN;
        TransactionPayload payload = call(dex, "add-liquidity", uint(stxAmount), uint(tokenAmount));
        StacksTransaction tx = sign(labs, fee(10_000, 50_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(new PostCondition.Stx(new PostConditionPrincipal.Origin(), FungibleConditionCode.SENT_EQUAL_TO,
                                BigInteger.valueOf(stxAmount)),
                        new PostCondition.Fungible(new PostConditionPrincipal.Origin(), new AssetInfo(token, "demo-token"),
                                FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(tokenAmount))), payload);
        List<NewEvent> events = new ArrayList<>();
        labs.stx -= stxAmount;
        labs.token -= tokenAmount;
        dexStx += stxAmount;
        dexToken += tokenAmount;
        events.add(new NewEvent.StxAsset(NewEvent.AssetAction.TRANSFER, labs.id, dexId, BigInteger.valueOf(stxAmount),
                null));
        events.add(new NewEvent.FungibleAsset(NewEvent.AssetAction.TRANSFER, tokenAssetId, labs.id, dexId,
                BigInteger.valueOf(tokenAmount)));
        events.add(log(token, tuple("action", ascii("transfer"), "amount", uint(tokenAmount), "memo",
                ClarityValue.NONE, "recipient", principal(dex), "sender", principal(labs))));
        events.add(log(dex, tuple("action", ascii("add-liquidity"), "provider", principal(labs),
                "stx-amount", uint(stxAmount), "token-amount", uint(tokenAmount))));
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(3), null, events);
    }

    /** The trader's swaps; a few fail on slippage (response) or on their own post condition. */
    private void swap(boolean pending) {
        boolean stxForToken = trader.token < 20_000 * TOKEN || random.nextBoolean();
        int roll = random.nextInt(100);
        TxOutcome outcome = pending || roll >= 6 ? TxOutcome.SUCCESS
                : roll < 4 ? TxOutcome.ABORT_BY_RESPONSE : TxOutcome.ABORT_BY_POST_CONDITION;
        long amountIn;
        long amountOut;
        if (stxForToken) {
            amountIn = random.nextLong(50, 5_000) * STX;
            amountOut = amountOut(amountIn, dexStx, dexToken);
        } else {
            amountIn = Math.min(random.nextLong(50_000, 5_000_000) * TOKEN / 1000 * 1000, trader.token / 2);
            amountOut = amountOut(amountIn, dexToken, dexStx);
        }
        long minOut = outcome == TxOutcome.ABORT_BY_RESPONSE ? amountOut + amountOut / 50 : amountOut - amountOut / 100;
        AssetInfo asset = new AssetInfo(token, "demo-token");
        List<PostCondition> conditions;
        if (stxForToken) {
            // A post-condition failure: the wallet promised less STX than the call sends.
            long promised = outcome == TxOutcome.ABORT_BY_POST_CONDITION ? amountIn - STX : amountIn;
            conditions = List.of(
                    new PostCondition.Stx(new PostConditionPrincipal.Origin(), FungibleConditionCode.SENT_EQUAL_TO,
                            BigInteger.valueOf(promised)),
                    new PostCondition.Fungible(new PostConditionPrincipal.Contract(dex), asset,
                            FungibleConditionCode.SENT_GREATER_THAN_OR_EQUAL_TO, BigInteger.valueOf(minOut)));
        } else {
            long promised = outcome == TxOutcome.ABORT_BY_POST_CONDITION ? amountIn - TOKEN : amountIn;
            conditions = List.of(
                    new PostCondition.Fungible(new PostConditionPrincipal.Standard(trader.address), asset,
                            FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(promised)),
                    new PostCondition.Stx(new PostConditionPrincipal.Contract(dex),
                            FungibleConditionCode.SENT_GREATER_THAN_OR_EQUAL_TO, BigInteger.valueOf(minOut)));
        }
        TransactionPayload payload = call(dex, stxForToken ? "swap-stx-for-token" : "swap-token-for-stx",
                uint(amountIn), uint(minOut));
        if (pending) {
            pending(trader, fee(3_000, 30_000), null, 0, PostConditionMode.DENY, conditions, payload);
            return;
        }
        StacksTransaction tx = sign(trader, fee(3_000, 30_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                conditions, payload);
        if (outcome == TxOutcome.ABORT_BY_RESPONSE) {
            failed(tx, outcome, err(201), callCost(2));
            return;
        }
        if (outcome == TxOutcome.ABORT_BY_POST_CONDITION) {
            failed(tx, outcome, new ClarityValue.ResponseOk(uint(amountOut)), callCost(4));
            return;
        }
        List<NewEvent> events = new ArrayList<>();
        if (stxForToken) {
            trader.stx -= amountIn;
            trader.token += amountOut;
            dexStx += amountIn;
            dexToken -= amountOut;
            events.add(new NewEvent.StxAsset(NewEvent.AssetAction.TRANSFER, trader.id, dexId,
                    BigInteger.valueOf(amountIn), null));
            events.add(new NewEvent.FungibleAsset(NewEvent.AssetAction.TRANSFER, tokenAssetId, dexId, trader.id,
                    BigInteger.valueOf(amountOut)));
            events.add(log(token, tuple("action", ascii("transfer"), "amount", uint(amountOut), "memo",
                    ClarityValue.NONE, "recipient", principal(trader), "sender", principal(dex))));
        } else {
            trader.token -= amountIn;
            trader.stx += amountOut;
            dexToken += amountIn;
            dexStx -= amountOut;
            events.add(new NewEvent.FungibleAsset(NewEvent.AssetAction.TRANSFER, tokenAssetId, trader.id, dexId,
                    BigInteger.valueOf(amountIn)));
            events.add(log(token, tuple("action", ascii("transfer"), "amount", uint(amountIn), "memo",
                    ClarityValue.NONE, "recipient", principal(dex), "sender", principal(trader))));
            events.add(new NewEvent.StxAsset(NewEvent.AssetAction.TRANSFER, dexId, trader.id,
                    BigInteger.valueOf(amountOut), null));
        }
        events.add(log(dex, tuple("action", ascii(stxForToken ? "swap-stx-for-token" : "swap-token-for-stx"),
                "amount-in", uint(amountIn), "amount-out", uint(amountOut), "pool", principal(dex),
                "reserves", tuple("stx", uint(dexStx), "token", uint(dexToken)), "sender", principal(trader))));
        mined(tx, TxOutcome.SUCCESS, new ClarityValue.ResponseOk(uint(amountOut)), callCost(4), null, events);
    }

    private static long amountOut(long amountIn, long reserveIn, long reserveOut) {
        BigInteger inWithFee = BigInteger.valueOf(amountIn).multiply(BigInteger.valueOf(9_970));
        return inWithFee.multiply(BigInteger.valueOf(reserveOut))
                .divide(BigInteger.valueOf(reserveIn).multiply(BigInteger.valueOf(10_000)).add(inWithFee))
                .longValueExact();
    }

    private void tokenMint(Account to, long amount) {
        StacksTransaction tx = sign(labs, fee(5_000, 20_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(), call(token, "mint", uint(amount), principal(to)));
        to.token += amount;
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(2), null, List.of(
                new NewEvent.FungibleAsset(NewEvent.AssetAction.MINT, tokenAssetId, null, to.id,
                        BigInteger.valueOf(amount)),
                log(token, tuple("action", ascii("mint"), "amount", uint(amount), "recipient", principal(to)))));
    }

    /** SIP-010 transfers between users; some fail with (err u1), the token's insufficient-balance code. */
    private void tokenTransfer(boolean pending) {
        Account from = tokenHolder();
        Account to = otherThan(from);
        boolean fails = !pending && random.nextInt(100) < 6;
        long amount = fails ? from.token + random.nextLong(1, 1_000) * TOKEN
                : Math.max(1, Math.min(random.nextLong(1, 50_000) * TOKEN, from.token / 2));
        ClarityValue memoArg = random.nextInt(100) < 25
                ? new ClarityValue.OptionalSome(new ClarityValue.Buffer(
                        ("inv-" + random.nextInt(100_000)).getBytes(StandardCharsets.US_ASCII)))
                : ClarityValue.NONE;
        boolean allow = random.nextInt(100) < 20;
        List<PostCondition> conditions = allow ? List.of() : List.of(new PostCondition.Fungible(
                new PostConditionPrincipal.Standard(from.address), new AssetInfo(token, "demo-token"),
                FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(amount)));
        TransactionPayload payload = call(token, "transfer", uint(amount), principal(from), principal(to), memoArg);
        PostConditionMode mode = allow ? PostConditionMode.ALLOW : PostConditionMode.DENY;
        if (pending) {
            pending(from, fee(2_000, 20_000), null, 0, mode, conditions, payload);
            return;
        }
        StacksTransaction tx = sign(from, fee(2_000, 20_000), null, 0, AnchorMode.ANY, mode, conditions, payload);
        if (fails) {
            failed(tx, TxOutcome.ABORT_BY_RESPONSE, err(1), callCost(1));
            return;
        }
        from.token -= amount;
        to.token += amount;
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(2), null, List.of(
                new NewEvent.FungibleAsset(NewEvent.AssetAction.TRANSFER, tokenAssetId, from.id, to.id,
                        BigInteger.valueOf(amount)),
                log(token, tuple("action", ascii("transfer"), "amount", uint(amount), "memo", memoArg,
                        "recipient", principal(to), "sender", principal(from)))));
    }

    private void tokenBurn() {
        Account from = tokenHolder();
        long amount = Math.max(1, from.token / 10);
        StacksTransaction tx = sign(from, fee(2_000, 10_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(new PostCondition.Fungible(new PostConditionPrincipal.Origin(),
                        new AssetInfo(token, "demo-token"), FungibleConditionCode.SENT_LESS_THAN_OR_EQUAL_TO,
                        BigInteger.valueOf(amount))), call(token, "burn", uint(amount)));
        from.token -= amount;
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(2), null, List.of(
                new NewEvent.FungibleAsset(NewEvent.AssetAction.BURN, tokenAssetId, from.id, null,
                        BigInteger.valueOf(amount)),
                log(token, tuple("action", ascii("burn"), "amount", uint(amount), "sender", principal(from)))));
    }

    private void nftClaim(boolean pending) {
        Account user = richUser(50 * STX);
        long price = 10 * STX;
        List<PostCondition> conditions = List.of(new PostCondition.Stx(new PostConditionPrincipal.Origin(),
                FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(price)));
        TransactionPayload payload = call(nft, "claim");
        if (pending) {
            pending(user, fee(3_000, 15_000), null, 0, PostConditionMode.DENY, conditions, payload);
            return;
        }
        StacksTransaction tx = sign(user, fee(3_000, 15_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                conditions, payload);
        long id = ++lastNftId;
        user.stx -= price;
        nftOwners.put(id, user);
        mined(tx, TxOutcome.SUCCESS, new ClarityValue.ResponseOk(uint(id)), callCost(3), null, List.of(
                new NewEvent.StxAsset(NewEvent.AssetAction.TRANSFER, user.id, nftContractId, BigInteger.valueOf(price),
                        null),
                new NewEvent.NonFungibleAsset(NewEvent.AssetAction.MINT, nftAssetId, null, user.id,
                        uint(id).serializeHex()),
                log(nft, tuple("action", ascii("mint"), "id", uint(id), "owner", principal(user), "uri",
                        new ClarityValue.OptionalSome(ascii("ipfs://bafybeigdemopunks/metadata.json"))))));
    }

    /** NFT transfers; now and then the wallet's own "must not leave" condition aborts one. */
    private void nftTransfer() {
        if (nftOwners.isEmpty()) {
            return;
        }
        List<Long> ids = new ArrayList<>(nftOwners.keySet());
        long id = ids.get(random.nextInt(ids.size()));
        Account from = nftOwners.get(id);
        Account to = otherThan(from);
        boolean abort = random.nextInt(100) < 8;
        List<PostCondition> conditions = List.of(new PostCondition.NonFungible(
                new PostConditionPrincipal.Standard(from.address), new AssetInfo(nft, "demo-nft"), uint(id),
                abort ? NonFungibleConditionCode.NOT_SENT : NonFungibleConditionCode.SENT));
        StacksTransaction tx = sign(from, fee(2_000, 12_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                conditions, call(nft, "transfer", uint(id), principal(from), principal(to)));
        if (abort) {
            failed(tx, TxOutcome.ABORT_BY_POST_CONDITION, OK_TRUE, callCost(2));
            return;
        }
        nftOwners.put(id, to);
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(2), null, List.of(
                new NewEvent.NonFungibleAsset(NewEvent.AssetAction.TRANSFER, nftAssetId, from.id, to.id,
                        uint(id).serializeHex()),
                log(nft, tuple("action", ascii("transfer"), "id", uint(id), "recipient", principal(to),
                        "sender", principal(from)))));
    }

    private void nftBurn() {
        if (nftOwners.isEmpty()) {
            return;
        }
        long id = nftOwners.keySet().iterator().next();
        Account owner = nftOwners.remove(id);
        StacksTransaction tx = sign(owner, fee(2_000, 12_000), null, 0, AnchorMode.ANY, PostConditionMode.ALLOW,
                List.of(), call(nft, "burn", uint(id)));
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(2), null, List.of(
                new NewEvent.NonFungibleAsset(NewEvent.AssetAction.BURN, nftAssetId, owner.id, null,
                        uint(id).serializeHex()),
                log(nft, new ClarityValue.StringUtf8("burned \ud83d\udd25"))));
    }

    /** name-registry registration; sponsored ones are paid for by the sponsor account. */
    private void register(Account user, boolean sponsored, boolean pending) {
        boolean taken = !pending && !names.isEmpty() && random.nextInt(100) < 10;
        String name = taken ? new ArrayList<>(names.keySet()).get(random.nextInt(names.size()))
                : pick(WORDS) + "-" + (names.size() + random.nextInt(1_000));
        while (!taken && names.containsKey(name)) {
            name = name + random.nextInt(10);
        }
        ClarityValue bio = random.nextInt(100) < 60
                ? new ClarityValue.OptionalSome(new ClarityValue.StringUtf8(pick(BIOS))) : ClarityValue.NONE;
        List<ClarityValue> tags = new ArrayList<>();
        for (int i = random.nextInt(0, 4); i > 0; i--) {
            tags.add(ascii(pick(TAGS)));
        }
        ClarityValue tagList = new ClarityValue.ListValue(tags);
        long fee = sponsored ? 0 : fee(3_000, 20_000);
        long sponsorFee = sponsored ? fee(5_000, 25_000) : 0;
        TransactionPayload payload = call(registry, "register", ascii(name), bio, tagList);
        List<PostCondition> conditions = List.of(new PostCondition.Stx(new PostConditionPrincipal.Origin(),
                FungibleConditionCode.SENT_EQUAL_TO, BigInteger.valueOf(2 * STX)));
        if (pending) {
            pending(user, fee, sponsored ? sponsor : null, sponsorFee, PostConditionMode.DENY, conditions, payload);
            return;
        }
        StacksTransaction tx = sign(user, fee, sponsored ? sponsor : null, sponsorFee, AnchorMode.ANY,
                PostConditionMode.DENY, conditions, payload);
        if (taken) {
            failed(tx, TxOutcome.ABORT_BY_RESPONSE, err(409), callCost(1));
            return;
        }
        names.put(name, user);
        user.stx -= 2 * STX;
        long expiresAt = burnHeight() + 52_560;
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(3), null, List.of(
                new NewEvent.StxAsset(NewEvent.AssetAction.BURN, user.id, null, BigInteger.valueOf(2 * STX), null),
                log(registry, tuple("bio", bio, "event", ascii("name-registered"), "expires-at", uint(expiresAt),
                        "name", ascii(name), "owner", principal(user), "tags", tagList))));
    }

    private void renew() {
        if (names.isEmpty()) {
            return;
        }
        List<String> all = new ArrayList<>(names.keySet());
        String name = all.get(random.nextInt(all.size()));
        Account owner = names.get(name);
        StacksTransaction tx = sign(owner, fee(3_000, 12_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(), call(registry, "renew", ascii(name)));
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(2), null, List.of(log(registry,
                new ClarityValue.ResponseOk(tuple("expires-at", uint(burnHeight() + 2 * 52_560),
                        "extended-by", ClarityValue.Int.of(52_560), "name", ascii(name))))));
    }

    private void setPrimary() {
        if (names.isEmpty()) {
            return;
        }
        List<String> all = new ArrayList<>(names.keySet());
        String name = all.get(random.nextInt(all.size()));
        Account owner = names.get(name);
        StacksTransaction tx = sign(owner, fee(3_000, 12_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(), call(registry, "set-primary", ascii(name)));
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, callCost(2), null, List.of(log(registry, principal(owner))));
    }

    /** PoX stacking: locks STX until the end of the chosen number of reward cycles. */
    private void stackStx(Account stacker, boolean pending) {
        long amount = random.nextLong(100_000, 250_000) * STX;
        long lockPeriod = random.nextLong(1, 13);
        long startBurnHeight = burnHeight() + 1;
        long cycle = (startBurnHeight - POX_FIRST_BURN_HEIGHT) / POX_CYCLE_LENGTH;
        long unlockHeight = POX_FIRST_BURN_HEIGHT + (cycle + 1 + lockPeriod) * POX_CYCLE_LENGTH;
        ClarityValue poxAddress = tuple("hashbytes", new ClarityValue.Buffer(bytes(20)),
                "version", new ClarityValue.Buffer(new byte[]{0x04}));
        TransactionPayload payload = call(POX, "stack-stx", uint(amount), poxAddress, uint(startBurnHeight),
                uint(lockPeriod));
        if (pending) {
            pending(stacker, fee(10_000, 50_000), null, 0, PostConditionMode.DENY, List.of(), payload);
            return;
        }
        StacksTransaction tx = sign(stacker, fee(10_000, 50_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                List.of(), payload);
        ClarityValue result = new ClarityValue.ResponseOk(tuple("lock-amount", uint(amount),
                "stacker", principal(stacker), "unlock-burn-height", uint(unlockHeight)));
        mined(tx, TxOutcome.SUCCESS, result, callCost(8), null, List.of(
                new NewEvent.StxLock(BigInteger.valueOf(amount), unlockHeight, stacker.id)));
    }

    private void poisonMicroblock() {
        Account reporter = richUser(10 * STX);
        String parent = hash32();
        String signature = "0x00" + Hex.encodeBare(bytes(64));
        TransactionPayload payload = new TransactionPayload.PoisonMicroblock(
                TransactionEncoder.microblockHeader(0, 1, parent, hash32(), signature),
                TransactionEncoder.microblockHeader(0, 1, parent, hash32(), signature));
        StacksTransaction tx = sign(reporter, fee(2_000, 5_000), null, 0, AnchorMode.ON_CHAIN_ONLY,
                PostConditionMode.DENY, List.of(), payload);
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, ExecutionCost.ZERO, null, List.of());
    }

    private void tenureChange(Account miner, TenureChangeCause cause) {
        TransactionPayload payload = new TransactionPayload.TenureChange(hex(20), hex(20), hex(20),
                previousIndexBlockHash, 1, cause, miner.address.hash160Hex());
        StacksTransaction tx = sign(miner, 0, null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY, List.of(),
                payload);
        mined(tx, TxOutcome.SUCCESS, OK_TRUE, ExecutionCost.ZERO, null, List.of());
    }

    // --- mempool ------------------------------------------------------------------------------------

    private void buildMempool() {
        long receipt = blocks.get(blocks.size() - 1).burnBlockTime() + 45;
        List<Runnable> makers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            makers.add(() -> pendingTransfer(exchange, pick(users), random.nextLong(10, 5_000) * STX, memo("")));
        }
        for (int i = 0; i < 5; i++) {
            makers.add(() -> pendingTransfer(richUser(50 * STX), deposits, random.nextLong(5, 5_000) * STX,
                    memo(Long.toString(random.nextLong(10_000_000L, 99_999_999L)))));
        }
        for (int i = 0; i < 5; i++) {
            makers.add(() -> swap(true));
        }
        for (int i = 0; i < 4; i++) {
            makers.add(() -> tokenTransfer(true));
        }
        makers.add(() -> nftClaim(true));
        makers.add(() -> nftClaim(true));
        makers.add(() -> register(pick(users), false, true));
        makers.add(() -> register(pick(users), true, true));
        makers.add(() -> deployHello(pick(users), true));
        makers.add(() -> deployHello(pick(users), true));
        makers.add(() -> stackStx(stackers.get(stackers.size() - 1), true));
        makers.add(() -> {
            Account from = richUser(20 * STX);
            pendingTransfer(from, otherThan(from), random.nextLong(1, 300) * STX, memo("thanks"));
        });
        makers.add(() -> pendingTransfer(deposits, exchange, 10_000 * STX, memo("sweep")));
        makers.add(() -> pendingTransfer(exchange, pick(users), 1_234 * STX, memo("")));
        for (Runnable maker : makers) {
            int before = pendingTxs.size();
            maker.run();
            for (int i = before; i < pendingTxs.size(); i++) {
                mempool.add(new NewMempoolTransaction(pendingTxs.get(i), receipt));
                receipt += random.nextInt(5, 40);
            }
        }
    }

    private final List<String> pendingTxs = new ArrayList<>();

    private void pendingTransfer(Account from, Account to, long amount, String memo) {
        pending(from, fee(500, 5_000), null, 0, PostConditionMode.DENY, List.of(),
                new TransactionPayload.TokenTransfer(to.address, BigInteger.valueOf(amount), memo));
    }

    private void pending(Account origin, long fee, Account sponsorAccount, long sponsorFee, PostConditionMode mode,
                         List<PostCondition> conditions, TransactionPayload payload) {
        StacksTransaction tx = sign(origin, fee, sponsorAccount, sponsorFee, AnchorMode.ANY, mode, conditions,
                payload);
        pendingTxs.add(TransactionEncoder.encodeHex(tx));
    }

    // --- transaction plumbing -----------------------------------------------------------------------

    private StacksTransaction sign(Account origin, long fee, Account sponsorAccount, long sponsorFee,
                                   AnchorMode anchorMode, PostConditionMode mode, List<PostCondition> conditions,
                                   TransactionPayload payload) {
        SpendingCondition originCondition = condition(origin, fee);
        Optional<SpendingCondition> sponsorCondition = Optional.empty();
        if (sponsorAccount != null) {
            sponsorCondition = Optional.of(condition(sponsorAccount, sponsorFee));
            sponsorAccount.stx -= sponsorFee;
        } else {
            origin.stx -= fee;
        }
        return TransactionEncoder.seal(new StacksTransaction("0x", TransactionVersion.MAINNET, CHAIN_ID,
                originCondition, sponsorCondition, anchorMode, mode, conditions, payload));
    }

    private SpendingCondition condition(Account account, long fee) {
        String signature = "0x0" + random.nextInt(2) + Hex.encodeBare(bytes(64));
        return new SpendingCondition.SingleSig(HashMode.P2PKH, account.address.hash160Hex(),
                BigInteger.valueOf(account.nonce++), BigInteger.valueOf(fee), KeyEncoding.COMPRESSED, signature);
    }

    private void mined(StacksTransaction tx, TxOutcome outcome, ClarityValue result, ExecutionCost cost, String abi,
                       List<NewEvent> events) {
        txs.add(new NewTransaction(tx.txId(), TransactionEncoder.encodeHex(tx), txs.size(), outcome,
                result.serializeHex(), cost, microblockHash, microblockHash == null ? 0 : microblockSequence, abi,
                events));
    }

    /** Failed transactions keep their fee and cost but commit no events. */
    private void failed(StacksTransaction tx, TxOutcome outcome, ClarityValue result, ExecutionCost cost) {
        mined(tx, outcome, result, cost, null, List.of());
    }

    private static TransactionPayload call(ContractId contract, String function, ClarityValue... args) {
        return new TransactionPayload.ContractCall(contract, function, List.of(args));
    }

    private static NewEvent log(ContractId contract, ClarityValue value) {
        return new NewEvent.ContractLog(contract.toString(), "print", value.serializeHex());
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

    private long burnHeight() {
        return FIRST_BURN_HEIGHT + height - 1;
    }

    // --- values and randomness ----------------------------------------------------------------------

    private static ClarityValue uint(long value) {
        return ClarityValue.UInt.of(value);
    }

    private static ClarityValue err(long code) {
        return new ClarityValue.ResponseErr(uint(code));
    }

    private static ClarityValue ascii(String text) {
        return new ClarityValue.StringAscii(text);
    }

    private static ClarityValue principal(Account account) {
        return new ClarityValue.StandardPrincipal(account.address);
    }

    private static ClarityValue principal(ContractId contract) {
        return new ClarityValue.ContractPrincipal(contract);
    }

    private static ClarityValue tuple(Object... namesAndValues) {
        return ClarityValue.Tuple.sorted(namesAndValues);
    }

    private static String memo(String text) {
        return TransactionPayload.TokenTransfer.memoOf(text);
    }

    private Account newAccount() {
        return new Account(new StacksAddress(StacksAddress.MAINNET_SINGLE_SIG, bytes(20)));
    }

    /** A random user holding at least {@code minimum} micro-STX (retrying keeps the draw deterministic). */
    private Account richUser(long minimum) {
        for (int i = 0; i < 50; i++) {
            Account user = pick(users);
            if (user.stx >= minimum) {
                return user;
            }
        }
        return users.stream().max((a, b) -> Long.compare(a.stx, b.stx)).orElseThrow();
    }

    private Account tokenHolder() {
        for (int i = 0; i < 50; i++) {
            Account user = pick(users);
            if (user.token >= TOKEN && user.stx >= 10 * STX) {
                return user;
            }
        }
        return users.stream().max((a, b) -> Long.compare(a.token, b.token)).orElseThrow();
    }

    private Account otherThan(Account account) {
        Account other = pick(users);
        return other == account ? users.get((users.indexOf(account) + 1) % users.size()) : other;
    }

    private <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }

    private String pick(String[] items) {
        return items[random.nextInt(items.length)];
    }

    private long fee(long min, long max) {
        return random.nextLong(min, max);
    }

    private byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private String hash32() {
        return Hex.encode(bytes(32));
    }

    private String hex(int length) {
        return Hex.encode(bytes(length));
    }
}
