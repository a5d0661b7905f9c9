package io.stacksexplorer.generate;

import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.FungibleConditionCode;
import io.stacksexplorer.codec.tx.PostCondition;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.PostConditionPrincipal;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * The token and the DEX (the hot contract): the contracts' deployment and the pool's liquidity
 * first, then swaps (whose logs make the DEX the busiest contract), token transfers, mints, burns.
 */
abstract class DexTraffic extends StxTraffic {

    long dexStx;
    long dexToken;
    boolean bootstrapped;

    DexTraffic(SplittableRandom random) {
        super(random);
    }

    // --- bootstrap --------------------------------------------------------------------------------

    int bootstrapStep;

    GeneratedTx bootstrap() {
        GeneratedTx tx = switch (bootstrapStep++) {
            case 0 -> {
                long supply = 1_000_000_000 * TOKEN;
                labs.token += supply;
                yield deploy(labs, ContractSources.TOKEN, OptionalInt.empty(), TxOutcome.SUCCESS, List.of(),
                        List.of(new NewEvent.FungibleAsset(AssetAction.MINT, tokenAssetId, null, labs.id,
                                BigInteger.valueOf(supply))));
            }
            case 1 -> deploy(labs, ContractSources.NFT, OptionalInt.of(2), TxOutcome.SUCCESS, List.of(), List.of());
            case 2 -> deploy(labs, ContractSources.DEX, OptionalInt.of(2), TxOutcome.SUCCESS, List.of(), List.of());
            case 3 -> deploy(studio, ContractSources.REGISTRY, OptionalInt.empty(), TxOutcome.SUCCESS, List.of(),
                    List.of());
            default -> addLiquidity();
        };
        bootstrapped = bootstrapStep > 4;
        return tx;
    }

    GeneratedTx addLiquidity() {
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

    // --- the DEX (hot contract) and the token ----------------------------------------------------

    /** A swap; a few fail on slippage (response) or on the wallet's own post condition. */
    GeneratedTx swap(Account trader) {
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
        Encoded tx = sign(trader, fee(3_000, 30_000), null, 0, AnchorMode.ANY, swapMode(), conditions,
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
        long promised = amountIn - (stxForToken ? STX : TOKEN) / 2;
        String vmError = stxForToken
                ? "Post-condition check failure on STX owned by " + trader.id + ": " + promised + " SentEq " + amountIn
                : "Post-condition check failure on fungible asset " + tokenAssetId + " owned by " + trader.id + ": "
                + promised + " SentEq " + amountIn;
        return done(tx, trader, null, null, outcome, result.serializeHex(), callCost(4), null, events)
                .withExtra(new GeneratedTx.Extra(vmError, null, null));
    }

    static long amountOut(long amountIn, long reserveIn, long reserveOut) {
        BigInteger inWithFee = BigInteger.valueOf(amountIn).multiply(BigInteger.valueOf(9_970));
        return inWithFee.multiply(BigInteger.valueOf(reserveOut))
                .divide(BigInteger.valueOf(reserveIn).multiply(BigInteger.valueOf(10_000)).add(inWithFee))
                .longValueExact();
    }

    /** SIP-010 transfers between users; some fail with (err u1), the token's insufficient balance. */
    GeneratedTx tokenTransfer() {
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

    GeneratedTx tokenMint(Account to, long amount) {
        Encoded tx = sign(labs, fee(5_000, 20_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY, List.of(),
                call(token, "mint", uint(amount), to.principal));
        to.token += amount;
        return done(tx, labs, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(2), null, List.of(
                new NewEvent.FungibleAsset(AssetAction.MINT, tokenAssetId, null, to.id, BigInteger.valueOf(amount)),
                log(tokenId, tuple("action", ascii("mint"), "amount", uint(amount), "recipient", to.principal))));
    }

    GeneratedTx tokenBurn() {
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
}
