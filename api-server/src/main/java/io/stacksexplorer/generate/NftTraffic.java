package io.stacksexplorer.generate;

import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.FungibleConditionCode;
import io.stacksexplorer.codec.tx.NonFungibleConditionCode;
import io.stacksexplorer.codec.tx.PostCondition;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.PostConditionPrincipal;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.List;
import java.util.SplittableRandom;

/** The NFT collection: claims, transfers and burns, with a capped book of recent tokens and owners. */
abstract class NftTraffic extends DexTraffic {

    long lastNftId;
    final long[] nftIds = new long[NFT_BOOK];
    final Account[] nftOwners = new Account[NFT_BOOK];
    int nftCount;

    NftTraffic(SplittableRandom random) {
        super(random);
    }

    // --- NFTs -------------------------------------------------------------------------------------

    GeneratedTx nftClaim() {
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
    GeneratedTx nftTransfer() {
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
                        uint(id), abort ? NonFungibleConditionCode.NOT_SENT : maybeSent()
                        ? NonFungibleConditionCode.MAYBE_SENT : NonFungibleConditionCode.SENT)),
                call(nft, "transfer", uint(id), from.principal, to.principal));
        List<NewEvent> events = List.of(
                new NewEvent.NonFungibleAsset(AssetAction.TRANSFER, nftAssetId, from.id, to.id,
                        uint(id).serializeHex()),
                log(nftId, tuple("action", ascii("transfer"), "id", uint(id), "recipient", to.principal,
                        "sender", from.principal)));
        if (abort) {
            return done(tx, from, null, null, TxOutcome.ABORT_BY_POST_CONDITION, OK_TRUE_HEX, callCost(2), null,
                    events).withExtra(new GeneratedTx.Extra("Post-condition check failure on non-fungible asset "
                    + nftAssetId + " owned by " + from.id + ": UInt(" + id + ") NotSent true", null, null));
        }
        nftOwners[slot] = to;
        return done(tx, from, null, null, TxOutcome.SUCCESS, OK_TRUE_HEX, callCost(2), null, events);
    }

    GeneratedTx nftBurn() {
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
}
