package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.clarity.ClarityValue;
import java.math.BigInteger;
import java.util.Objects;

/**
 * A condition on asset movements checked after execution; {@link #type()} is the Stacks API's {@code type}.
 * Types 0x00-0x02 since Stacks 2.0; {@link Staking} (0x03) and {@link Pox} (0x04) since SIP-044 (epoch 4.0).
 */
public sealed interface PostCondition {

    PostConditionPrincipal principal();

    String type();

    record Stx(PostConditionPrincipal principal, FungibleConditionCode conditionCode, BigInteger amount)
            implements PostCondition {
        public Stx {
            Objects.requireNonNull(principal, "principal");
            Objects.requireNonNull(conditionCode, "conditionCode");
            Objects.requireNonNull(amount, "amount");
        }

        @Override
        public String type() {
            return "stx";
        }
    }

    record Fungible(PostConditionPrincipal principal, AssetInfo asset, FungibleConditionCode conditionCode,
                    BigInteger amount) implements PostCondition {
        public Fungible {
            Objects.requireNonNull(principal, "principal");
            Objects.requireNonNull(asset, "asset");
            Objects.requireNonNull(conditionCode, "conditionCode");
            Objects.requireNonNull(amount, "amount");
        }

        @Override
        public String type() {
            return "fungible";
        }
    }

    record NonFungible(PostConditionPrincipal principal, AssetInfo asset, ClarityValue assetValue,
                       NonFungibleConditionCode conditionCode) implements PostCondition {
        public NonFungible {
            Objects.requireNonNull(principal, "principal");
            Objects.requireNonNull(asset, "asset");
            Objects.requireNonNull(assetValue, "assetValue");
            Objects.requireNonNull(conditionCode, "conditionCode");
        }

        @Override
        public String type() {
            return "non_fungible";
        }
    }

    /** SIP-044 (epoch 4.0): bounds the micro-STX the principal stakes (locks) in this transaction. */
    record Staking(PostConditionPrincipal principal, FungibleConditionCode conditionCode, BigInteger amount)
            implements PostCondition {
        public Staking {
            Objects.requireNonNull(principal, "principal");
            Objects.requireNonNull(conditionCode, "conditionCode");
            Objects.requireNonNull(amount, "amount");
        }

        @Override
        public String type() {
            return "staking";
        }
    }

    /** SIP-044 (epoch 4.0): whether the principal performs a PoX operation in this transaction. */
    record Pox(PostConditionPrincipal principal, PoxConditionCode conditionCode) implements PostCondition {
        public Pox {
            Objects.requireNonNull(principal, "principal");
            Objects.requireNonNull(conditionCode, "conditionCode");
        }

        @Override
        public String type() {
            return "pox";
        }
    }
}
