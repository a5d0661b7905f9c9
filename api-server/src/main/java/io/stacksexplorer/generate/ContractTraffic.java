package io.stacksexplorer.generate;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.FungibleConditionCode;
import io.stacksexplorer.codec.tx.PostCondition;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.PostConditionPrincipal;
import io.stacksexplorer.codec.tx.TenureChangeCause;
import io.stacksexplorer.codec.tx.TransactionEncoder;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * Everything else on contracts: small contracts users deploy and call, deployments that fail, the
 * name registry (registrations and renewals), stacking through PoX, and the rare 2.x-only kinds
 * (poison microblocks, stray tenure changes).
 */
abstract class ContractTraffic extends NftTraffic {

    final String[] names = new String[NAME_BOOK];
    final Account[] nameOwners = new Account[NAME_BOOK];
    long nameCount;
    long helloCount;

    ContractTraffic(SplittableRandom random) {
        super(random);
    }

    // --- small contracts ----------------------------------------------------------------------------

    /** The deployer of hello-world-k is a function of k, so no list of deployments is kept. */
    Account helloDeployer(long k) {
        return users[(int) Math.floorMod(k * 2_654_435_761L, (long) USERS)];
    }

    GeneratedTx helloDeploy() {
        long k = ++helloCount;
        int version = clarityVersion() > 0 ? clarityVersion() : k % 2 == 0 ? 2 : 1;
        ContractSources.Contract contract = ContractSources.hello("hello-world-" + k, version);
        return deploy(helloDeployer(k), contract, version >= 2 ? OptionalInt.of(version) : OptionalInt.empty(),
                TxOutcome.SUCCESS, List.of(), List.of());
    }

    GeneratedTx helloCall() {
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
    GeneratedTx failedDeploy(boolean atRuntime) {
        Account deployer = richUser(20 * STX);
        if (atRuntime) {
            // The node words a runtime error by its kind: the vault's unwrap-panic of a missing entry.
            return deploy(deployer, ContractSources.VAULT, OptionalInt.empty(), TxOutcome.ABORT_BY_RESPONSE, List.of(),
                    List.of()).withExtra(new GeneratedTx.Extra("UnwrapFailure", null, null));
        }
        return deploy(deployer, ContractSources.LAUNCHPAD, OptionalInt.empty(), TxOutcome.ABORT_BY_POST_CONDITION,
                List.of(new PostCondition.Stx(new PostConditionPrincipal.Origin(),
                        FungibleConditionCode.SENT_LESS_THAN_OR_EQUAL_TO, BigInteger.valueOf(STX))),
                List.of(new NewEvent.StxAsset(AssetAction.TRANSFER, deployer.id,
                        deployer.id + "." + ContractSources.LAUNCHPAD.name(), BigInteger.valueOf(5 * STX), null)))
                .withExtra(new GeneratedTx.Extra("Post-condition check failure on STX owned by " + deployer.id + ": "
                        + STX + " SentLe " + 5 * STX, null, null));
    }

    /** name-registry registrations (half of them sponsored); a taken name fails with (err u409). */
    GeneratedTx register() {
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

    GeneratedTx renew() {
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
    GeneratedTx stack() {
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

    GeneratedTx poisonMicroblock() {
        Account reporter = richUser(10 * STX);
        String parent = hash32();
        String signature = "0x00" + Hex.encodeBare(bytes(64));
        Encoded tx = sign(reporter, fee(2_000, 5_000), null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY,
                List.of(), new TransactionPayload.PoisonMicroblock(
                        TransactionEncoder.microblockHeader(0, 1, parent, hash32(), signature),
                        TransactionEncoder.microblockHeader(0, 1, parent, hash32(), signature)));
        return done(tx, reporter, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, List.of());
    }

    GeneratedTx tenureChange() {
        Account miner = miners[random.nextInt(MINERS)];
        Encoded tx = sign(miner, 0, null, 0, AnchorMode.ON_CHAIN_ONLY, PostConditionMode.DENY, List.of(),
                new TransactionPayload.TenureChange(hex(20), hex(20), hex(20), hash32(), 1,
                        random.nextBoolean() ? TenureChangeCause.BLOCK_FOUND : TenureChangeCause.EXTENDED,
                        miner.hash160Hex));
        return done(tx, miner, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, ExecutionCost.ZERO, null, List.of());
    }
}
