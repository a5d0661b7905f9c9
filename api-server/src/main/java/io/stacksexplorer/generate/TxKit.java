package io.stacksexplorer.generate;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.Sha512_256;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import io.stacksexplorer.codec.tx.AnchorMode;
import io.stacksexplorer.codec.tx.AssetInfo;
import io.stacksexplorer.codec.tx.AuthField;
import io.stacksexplorer.codec.tx.HashMode;
import io.stacksexplorer.codec.tx.KeyEncoding;
import io.stacksexplorer.codec.tx.PostCondition;
import io.stacksexplorer.codec.tx.PostConditionMode;
import io.stacksexplorer.codec.tx.SpendingCondition;
import io.stacksexplorer.codec.tx.StacksTransaction;
import io.stacksexplorer.codec.tx.TransactionEncoder;
import io.stacksexplorer.codec.tx.TransactionPayload;
import io.stacksexplorer.codec.tx.TransactionVersion;
import io.stacksexplorer.generate.GeneratedTx.Encoded;
import io.stacksexplorer.write.ExecutionCost;
import io.stacksexplorer.write.NewEvent;
import io.stacksexplorer.write.TxOutcome;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * What every kind of generated traffic shares: the accounts pool (miners, users, the hot address,
 * the labs, studio and sponsor accounts), the contracts' ids, and the plumbing that turns an action
 * into a signed transaction with what the node would report for it (result, cost, events).
 * The kinds of traffic build on it: {@link StxTraffic}, {@link DexTraffic}, {@link NftTraffic},
 * {@link ContractTraffic}, and {@link Traffic}, which mixes them.
 */
abstract class TxKit {

    static final long STX = 1_000_000L;
    static final long TOKEN = 1_000_000L;
    static final int USERS = 6_000;
    static final int MINERS = 24;
    static final long CHAIN_ID = 1;
    static final int NFT_BOOK = 4_096;
    static final int NAME_BOOK = 2_048;
    static final String POX_CONTRACT = "SP000000000000000000002Q6VF78.pox";
    static final ContractId POX = ContractId.parse(POX_CONTRACT);
    static final long POX_FIRST_BURN_HEIGHT = 666_050L;
    static final long POX_CYCLE_LENGTH = 2_100L;
    static final ClarityValue OK_TRUE = new ClarityValue.ResponseOk(ClarityValue.Bool.TRUE);
    static final String OK_TRUE_HEX = OK_TRUE.serializeHex();
    static final String EMPTY_MEMO = Hex.encode(new byte[34]);
    static final String[] WORDS = {"satoshi", "stacker", "clarity", "nakamoto", "orange", "bitcoin",
        "moon", "pixel", "ember", "delta", "atlas", "nova", "quartz", "lumen", "cobalt", "harbor", "zephyr", "maple"};
    static final String[] GREETINGS = {"gm", "hello stacks", "wagmi", "building on bitcoin", "hi mom",
        "first!", "stacking sats", "clarity is neat"};

    final SplittableRandom random;
    final Account[] miners = new Account[MINERS];
    final Account[] users = new Account[USERS];
    final Account hot;
    final Account labs;
    final Account studio;
    final Account sponsor;

    final ContractId token;
    final ContractId nft;
    final ContractId dex;
    final ContractId registry;
    final String tokenAssetId;
    final String nftAssetId;
    final String hotContract;
    final String tokenId;
    final String nftId;
    final String registryId;
    final ClarityValue dexPrincipal;
    final AssetInfo tokenAsset;
    final AssetInfo nftAsset;

    /** Burn height of the block being built (stacking and name expiry read it). */
    long burnHeight;
    /** Whether blocks follow the Nakamoto rules (epoch 3.0 and later). */
    boolean nakamoto;

    /** The post-condition mode of a swap (before epoch 3.4: deny). */
    PostConditionMode swapMode() {
        return PostConditionMode.DENY;
    }

    /** Whether an NFT transfer's condition is maybe_sent (never before epoch 3.4). */
    boolean maybeSent() {
        return false;
    }

    /** The Clarity version a deployment names; -1 before epoch 3.4 (the traffic's own mix). */
    int clarityVersion() {
        return -1;
    }

    TxKit(SplittableRandom random) {
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
        token = new ContractId(labs.address, ContractSources.TOKEN.name());
        nft = new ContractId(labs.address, ContractSources.NFT.name());
        dex = new ContractId(labs.address, ContractSources.DEX.name());
        registry = new ContractId(studio.address, ContractSources.REGISTRY.name());
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

    // --- transaction plumbing -------------------------------------------------------------------

    /** Signs for the origin's (and sponsor's) next nonce and advances it. */
    Encoded sign(Account origin, long fee, Account sponsorAccount, long sponsorFee, AnchorMode anchorMode,
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

    Encoded encode(Account origin, long nonce, long fee, Account sponsorAccount, long sponsorNonce,
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
    SpendingCondition condition(Account account, long nonce, long fee) {
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
    String signature() {
        return "0x0" + random.nextInt(2) + Hex.encodeBare(bytes(64));
    }

    /**
     * The mined transaction. Whether the hot address takes part follows the API's rule: sender,
     * sponsor, token-transfer recipient, or a party of a committed asset event.
     */
    GeneratedTx done(Encoded tx, Account origin, Account sponsorAccount, Account recipient, TxOutcome outcome,
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

    static boolean involves(NewEvent e, String principal) {
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

    static TransactionPayload call(ContractId contract, String function, ClarityValue... args) {
        return new TransactionPayload.ContractCall(contract, function, List.of(args));
    }

    static NewEvent log(String contractId, ClarityValue value) {
        return new NewEvent.ContractLog(contractId, "print", value.serializeHex());
    }

    ExecutionCost callCost(int weight) {
        return new ExecutionCost(random.nextLong(3, 8) * weight, random.nextLong(1_500, 6_000) * weight,
                random.nextLong(20_000, 120_000) * weight, random.nextLong(1, 3) * weight,
                random.nextLong(50, 400) * weight);
    }

    ExecutionCost deployCost(int sourceLength) {
        return new ExecutionCost(random.nextLong(4, 12), random.nextLong(2_000, 8_000),
                sourceLength * random.nextLong(40, 90), random.nextLong(2, 6), sourceLength * 2L + 120);
    }

    // --- values and randomness ----------------------------------------------------------------------

    static ClarityValue uint(long value) {
        return ClarityValue.UInt.of(value);
    }

    static String err(long code) {
        return new ClarityValue.ResponseErr(uint(code)).serializeHex();
    }

    static ClarityValue ascii(String text) {
        return new ClarityValue.StringAscii(text);
    }

    static ClarityValue tuple(Object... namesAndValues) {
        return ClarityValue.Tuple.sorted(namesAndValues);
    }

    static String memo(String text) {
        return TransactionPayload.TokenTransfer.memoOf(text);
    }

    Account newAccount(boolean multiSig) {
        return new Account(new StacksAddress(multiSig ? StacksAddress.MAINNET_MULTI_SIG
                : StacksAddress.MAINNET_SINGLE_SIG, bytes(20)));
    }

    /** Users are not equally busy: the low indices are picked far more often. */
    Account pickUser() {
        double u = random.nextDouble();
        return users[(int) (u * u * USERS)];
    }

    Account richUser(long minimum) {
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

    Account tokenHolder() {
        for (int i = 0; i < 20; i++) {
            Account user = pickUser();
            if (user.token >= TOKEN && user.stx >= 10 * STX) {
                return user;
            }
        }
        return null;
    }

    Account otherThan(Account account) {
        Account other = pickUser();
        while (other == account) {
            other = users[random.nextInt(USERS)];
        }
        return other;
    }

    String pick(String[] items) {
        return items[random.nextInt(items.length)];
    }

    long fee(long min, long max) {
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

    String hex(int length) {
        return Hex.encode(bytes(length));
    }

    GeneratedTx deploy(Account deployer, ContractSources.Contract contract, OptionalInt clarityVersion,
                               TxOutcome outcome, List<PostCondition> conditions, List<NewEvent> events) {
        Encoded tx = sign(deployer, fee(50_000, 600_000), null, 0, AnchorMode.ANY, PostConditionMode.DENY,
                conditions, new TransactionPayload.SmartContract(contract.name(), contract.source(), clarityVersion));
        String result = outcome == TxOutcome.ABORT_BY_RESPONSE
                ? new ClarityValue.ResponseErr(ClarityValue.NONE).serializeHex() : OK_TRUE_HEX;
        return done(tx, deployer, null, null, outcome, result, deployCost(contract.source().length()),
                outcome == TxOutcome.SUCCESS ? contract.abi() : null, events);
    }
}
