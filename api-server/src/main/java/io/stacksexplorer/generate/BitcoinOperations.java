package io.stacksexplorer.generate;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.generate.BurnchainOperation.Kind;
import io.stacksexplorer.generate.GeneratedTx.Extra;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.NewEvent.AssetAction;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Stacks operations sent through Bitcoin, as a node executes them: in the first block of the tenure
 * that the burn block carrying them starts, before the block's own transactions, each as a receipt
 * with {@code raw_tx} "0x00", its {@code burnchain_op} and what it did. A transfer moves STX
 * ({@code stx_transfer_event}, result {@code (ok true)}, no cost); {@code stack-stx} and
 * {@code delegate-stx} are calls of the active PoX contract (pox-4 until epoch 4.0: pox-5 has neither
 * function, so from 4.0 the node drops such operations without a receipt); a vote for an aggregate key
 * calls {@code .signers-voting}, which prints the vote. None of them has a nonce, a fee or a mempool
 * life. The first tenure of epoch 3.3 carries one of each kind; later tenures now and then one.
 */
final class BitcoinOperations {

    static final String POX_4 = "SP000000000000000000002Q6VF78.pox-4";
    static final String SIGNERS_VOTING = "SP000000000000000000002Q6VF78.signers-voting";

    private final Traffic traffic;
    private final ArrayDeque<Kind> due = new ArrayDeque<>();

    BitcoinOperations(Traffic traffic) {
        this.traffic = traffic;
    }

    /** The epoch changed: its first tenure carries one operation of each kind it executes. */
    void entered(Epoch epoch) {
        if (epoch == Epoch.E3_3) {
            due.addAll(List.of(Kind.values()));
        } else if (epoch == Epoch.E4_0) {
            due.add(Kind.TRANSFER_STX);
        }
    }

    /** The operations of a new tenure's burn block, in the order the node executes them. */
    List<GeneratedTx> forTenure(Epoch epoch, NodeEventLog.Burn burn) {
        List<Kind> kinds = new ArrayList<>(due);
        due.clear();
        if (kinds.isEmpty() && traffic.random.nextInt(4) == 0) {
            Kind[] allowed = epoch.atLeast(Epoch.E4_0) ? new Kind[]{Kind.TRANSFER_STX}
                    : new Kind[]{Kind.TRANSFER_STX, Kind.TRANSFER_STX, Kind.STACK_STX, Kind.DELEGATE_STX};
            kinds.add(allowed[traffic.random.nextInt(allowed.length)]);
        }
        kinds.sort(null);
        List<GeneratedTx> txs = new ArrayList<>(kinds.size());
        int vtxindex = traffic.random.nextInt(2, 40);
        for (Kind kind : kinds) {
            vtxindex += traffic.random.nextInt(1, 200);
            txs.add(operation(kind, burn, vtxindex));
        }
        return txs;
    }

    private GeneratedTx operation(Kind kind, NodeEventLog.Burn burn, int vtxindex) {
        String burnTxid = Hex.encodeBare(traffic.bytes(32));
        Account sender = traffic.richUser(kind == Kind.STACK_STX ? 150_000 * TxKit.STX : 100 * TxKit.STX);
        Account other = traffic.otherThan(sender);
        long burnHeight = burn.height();
        String burnHeader = burn.hash().substring(2);
        List<NewEvent> events = new ArrayList<>(1);
        String result = TxKit.OK_TRUE_HEX;
        ExecutionCost cost = ExecutionCost.ZERO;
        BurnchainOperation op;
        switch (kind) {
            case TRANSFER_STX -> {
                long amount = traffic.random.nextLong(1, 5_000) * TxKit.STX;
                String memo = Hex.encode(traffic.bytes(traffic.random.nextInt(0, 9)));
                sender.stx -= amount;
                other.stx += amount;
                events.add(new NewEvent.StxAsset(AssetAction.TRANSFER, sender.id, other.id, BigInteger.valueOf(amount),
                        memo));
                op = new BurnchainOperation(kind, burnHeight, burnHeader, burnTxid, vtxindex, sender, other, amount,
                        memo, null, 0, null, 0, null, 0, 0, 0);
            }
            case STACK_STX -> {
                long amount = traffic.random.nextLong(100_000, 150_000) * TxKit.STX;
                long cycles = traffic.random.nextLong(1, 13);
                long cycle = (burnHeight + 1 - TxKit.POX_FIRST_BURN_HEIGHT) / TxKit.POX_CYCLE_LENGTH;
                long unlock = TxKit.POX_FIRST_BURN_HEIGHT + (cycle + 1 + cycles) * TxKit.POX_CYCLE_LENGTH;
                byte[] signerKey = signerKey();
                op = new BurnchainOperation(kind, burnHeight, burnHeader, burnTxid, vtxindex, sender, null, amount,
                        null, Nakamoto.p2pkhAddress(traffic.bytes(20)), cycles, Hex.encodeBare(signerKey),
                        traffic.random.nextLong(1, 1_000_000), null, 0, 0, 0);
                result = new ClarityValue.ResponseOk(TxKit.tuple("lock-amount", TxKit.uint(amount),
                        "signer-key", new ClarityValue.Buffer(signerKey), "stacker", sender.principal,
                        "unlock-burn-height", TxKit.uint(unlock))).serializeHex();
                events.add(new NewEvent.StxLock(BigInteger.valueOf(amount), unlock, sender.id));
                cost = traffic.callCost(8);
            }
            case DELEGATE_STX -> {
                long amount = traffic.random.nextLong(100, 50_000) * TxKit.STX;
                String rewardAddress = traffic.random.nextBoolean() ? Nakamoto.p2pkhAddress(traffic.bytes(20)) : null;
                op = new BurnchainOperation(kind, burnHeight, burnHeader, burnTxid, vtxindex, sender, other, amount,
                        null, rewardAddress, 0, null, 0, null, 0, 0, 0);
                cost = traffic.callCost(4);
            }
            default -> {
                byte[] aggregateKey = signerKey();
                long rewardCycle = (burnHeight - TxKit.POX_FIRST_BURN_HEIGHT) / TxKit.POX_CYCLE_LENGTH + 1;
                long signerIndex = traffic.random.nextLong(0, 12);
                op = new BurnchainOperation(kind, burnHeight, burnHeader, burnTxid, vtxindex, sender, null, 0, null,
                        null, 0, Hex.encodeBare(signerKey()), 0, Hex.encodeBare(aggregateKey), rewardCycle, 0,
                        signerIndex);
                events.add(TxKit.log(SIGNERS_VOTING, TxKit.tuple("event", TxKit.ascii("voted"),
                        "key", new ClarityValue.Buffer(aggregateKey), "new-total", TxKit.uint(
                                traffic.random.nextLong(1, 5_000)), "reward-cycle", TxKit.uint(rewardCycle),
                        "round", TxKit.uint(0), "signer", sender.principal)));
                cost = traffic.callCost(3);
            }
        }
        return new GeneratedTx(op.txId(), "0x00", "burnchain_op", false, TxOutcome.SUCCESS, result, cost, null,
                events, false, 0, null, new Extra(null, kind == Kind.STACK_STX ? POX_4 : null, op));
    }

    /** A compressed secp256k1 public key. */
    private byte[] signerKey() {
        byte[] key = traffic.bytes(33);
        key[0] = (byte) (2 + traffic.random.nextInt(2));
        return key;
    }
}
