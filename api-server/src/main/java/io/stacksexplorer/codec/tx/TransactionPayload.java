package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.Principal;
import io.stacksexplorer.codec.clarity.ClarityValue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/** What a transaction does. {@link #txType()} is the Stacks API's {@code tx_type}. */
public sealed interface TransactionPayload {

    int TOKEN_TRANSFER = 0x00;
    int SMART_CONTRACT = 0x01;
    int CONTRACT_CALL = 0x02;
    int POISON_MICROBLOCK = 0x03;
    int COINBASE = 0x04;
    int COINBASE_TO_ALT_RECIPIENT = 0x05;
    int VERSIONED_SMART_CONTRACT = 0x06;
    int TENURE_CHANGE = 0x07;
    int NAKAMOTO_COINBASE = 0x08;

    String txType();

    /** The payload type byte on the wire. */
    int typeId();

    /** STX transfer; {@code memo} is the fixed 34 bytes as {@code 0x}-hex. */
    record TokenTransfer(Principal recipient, BigInteger amount, String memo) implements TransactionPayload {
        public TokenTransfer {
            Objects.requireNonNull(recipient, "recipient");
            Objects.requireNonNull(amount, "amount");
            Objects.requireNonNull(memo, "memo");
        }

        /** The fixed 34-byte memo field from ASCII text (cut at 34 bytes, zero-padded), as 0x-hex. */
        public static String memoOf(String text) {
            byte[] memo = new byte[34];
            byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(bytes, 0, memo, 0, Math.min(bytes.length, memo.length));
            return Hex.encode(memo);
        }

        /** The recipient as the API writes it: an address or a contract id. */
        public String recipientAddress() {
            return recipient.toString();
        }

        @Override
        public String txType() {
            return "token_transfer";
        }

        @Override
        public int typeId() {
            return TOKEN_TRANSFER;
        }
    }

    /**
     * A deploy. {@code clarityVersion} is present only for the versioned form (type 0x06); the deployed
     * contract's id is the sender's address plus {@code contractName} (see {@link StacksTransaction#smartContractId()}).
     */
    record SmartContract(String contractName, String sourceCode, OptionalInt clarityVersion)
            implements TransactionPayload {
        public SmartContract {
            Objects.requireNonNull(contractName, "contractName");
            Objects.requireNonNull(sourceCode, "sourceCode");
            Objects.requireNonNull(clarityVersion, "clarityVersion");
        }

        @Override
        public String txType() {
            return "smart_contract";
        }

        @Override
        public int typeId() {
            return clarityVersion.isPresent() ? VERSIONED_SMART_CONTRACT : SMART_CONTRACT;
        }
    }

    record ContractCall(ContractId contract, String functionName, List<ClarityValue> functionArgs)
            implements TransactionPayload {
        public ContractCall {
            Objects.requireNonNull(contract, "contract");
            Objects.requireNonNull(functionName, "functionName");
            functionArgs = List.copyOf(functionArgs);
        }

        @Override
        public String txType() {
            return "contract_call";
        }

        @Override
        public int typeId() {
            return CONTRACT_CALL;
        }
    }

    record PoisonMicroblock(MicroblockHeader header1, MicroblockHeader header2) implements TransactionPayload {
        public PoisonMicroblock {
            Objects.requireNonNull(header1, "header1");
            Objects.requireNonNull(header2, "header2");
        }

        @Override
        public String txType() {
            return "poison_microblock";
        }

        @Override
        public int typeId() {
            return POISON_MICROBLOCK;
        }
    }

    /**
     * All three coinbase forms, which the API shows alike: plain (0x04), to an alternative recipient
     * (0x05), and Nakamoto (0x08, with a VRF proof and an optional recipient).
     */
    record Coinbase(String payload, Optional<Principal> altRecipient, Optional<String> vrfProof)
            implements TransactionPayload {
        public Coinbase {
            Objects.requireNonNull(payload, "payload");
            Objects.requireNonNull(altRecipient, "altRecipient");
            Objects.requireNonNull(vrfProof, "vrfProof");
        }

        @Override
        public String txType() {
            return "coinbase";
        }

        @Override
        public int typeId() {
            if (vrfProof.isPresent()) {
                return NAKAMOTO_COINBASE;
            }
            return altRecipient.isPresent() ? COINBASE_TO_ALT_RECIPIENT : COINBASE;
        }
    }

    /** Hashes as {@code 0x}-hex: consensus hashes and the pubkey hash are 20 bytes, the block id 32. */
    record TenureChange(String tenureConsensusHash, String prevTenureConsensusHash, String burnViewConsensusHash,
                        String previousTenureEnd, long previousTenureBlocks, TenureChangeCause cause,
                        String pubkeyHash) implements TransactionPayload {
        public TenureChange {
            Objects.requireNonNull(tenureConsensusHash, "tenureConsensusHash");
            Objects.requireNonNull(prevTenureConsensusHash, "prevTenureConsensusHash");
            Objects.requireNonNull(burnViewConsensusHash, "burnViewConsensusHash");
            Objects.requireNonNull(previousTenureEnd, "previousTenureEnd");
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(pubkeyHash, "pubkeyHash");
        }

        @Override
        public String txType() {
            return "tenure_change";
        }

        @Override
        public int typeId() {
            return TENURE_CHANGE;
        }
    }
}
