package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.Hex;
import io.stacksexplorer.codec.address.StacksAddress;
import java.math.BigInteger;
import java.util.List;
import java.util.Objects;

/** Who authorises and pays: the origin's, or a sponsor's, signer hash, nonce, fee and signatures. */
public sealed interface SpendingCondition {

    HashMode hashMode();

    /** The signer's hash160 as {@code 0x}-hex. */
    String signer();

    BigInteger nonce();

    /** The fee this account offers, in micro-STX (zero for the origin of a sponsored transaction). */
    BigInteger fee();

    /** The account's address on the transaction's network. */
    default StacksAddress address(TransactionVersion network) {
        return new StacksAddress(hashMode().addressVersion(network), Hex.decode(signer()));
    }

    record SingleSig(HashMode hashMode, String signer, BigInteger nonce, BigInteger fee,
                     KeyEncoding keyEncoding, String signature) implements SpendingCondition {

        /**
         * 65 zero bytes: no key signs to it, so no mined transaction carries it. The write path gives it
         * to the transactions it builds for Bitcoin-originated operations (which have no Stacks
         * transaction of their own), and the read side knows them by it.
         */
        public static final String UNSIGNED = "0x" + "00".repeat(65);

        public boolean isUnsigned() {
            return UNSIGNED.equals(signature);
        }
        public SingleSig {
            Objects.requireNonNull(hashMode, "hashMode");
            Objects.requireNonNull(signer, "signer");
            Objects.requireNonNull(nonce, "nonce");
            Objects.requireNonNull(fee, "fee");
            Objects.requireNonNull(keyEncoding, "keyEncoding");
            Objects.requireNonNull(signature, "signature");
        }
    }

    record MultiSig(HashMode hashMode, String signer, BigInteger nonce, BigInteger fee,
                    List<AuthField> fields, int signaturesRequired) implements SpendingCondition {
        public MultiSig {
            Objects.requireNonNull(hashMode, "hashMode");
            Objects.requireNonNull(signer, "signer");
            Objects.requireNonNull(nonce, "nonce");
            Objects.requireNonNull(fee, "fee");
            fields = List.copyOf(fields);
        }
    }
}
