package io.stacksexplorer.generate;

import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.List;
import java.util.SplittableRandom;

/** STX moving between users and the hot address (an exchange wallet): withdrawals, deposits, transfers. */
abstract class StxTraffic extends TxKit {

    StxTraffic(SplittableRandom random) {
        super(random);
    }

    // --- STX --------------------------------------------------------------------------------------

    GeneratedTx withdrawal(AnchorMode mode) {
        Account to = pickUser();
        long amount = random.nextLong(10, 5_000) * STX + random.nextLong(STX);
        if (hot.stx < amount + 10 * STX) {
            return deposit(mode);
        }
        return stxTransfer(hot, to, amount, EMPTY_MEMO, fee(1_000, 8_000), mode);
    }

    GeneratedTx deposit(AnchorMode mode) {
        Account from = richUser(60 * STX);
        long amount = Math.min(random.nextLong(5, 10_000) * STX, from.stx / 3);
        return stxTransfer(from, hot, amount, memo(Long.toString(random.nextLong(10_000_000L, 99_999_999L))),
                fee(500, 3_000), mode);
    }

    GeneratedTx userTransfer(AnchorMode mode) {
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

    GeneratedTx stxTransfer(Account from, Account to, long amount, String memo, long fee, AnchorMode mode) {
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

    static GeneratedTx withReplaced(GeneratedTx tx, Encoded replaced) {
        return new GeneratedTx(tx.txId(), tx.rawTx(), tx.txType(), tx.sponsored(), tx.status(), tx.rawResult(),
                tx.cost(), tx.contractAbi(), tx.events(), tx.hot(), tx.hotLogs(), replaced, tx.extra());
    }
}
