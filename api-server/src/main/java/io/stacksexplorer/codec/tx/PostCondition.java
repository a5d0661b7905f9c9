package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.clarity.ClarityValue;
import java.math.BigInteger;
import java.util.Objects;

/** A condition on asset movements checked after execution; {@link #type()} is the Stacks API's {@code type}. */
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
}
