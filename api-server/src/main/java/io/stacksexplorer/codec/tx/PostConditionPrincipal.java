package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.address.ContractId;
import io.stacksexplorer.codec.address.StacksAddress;
import java.util.Objects;

/** The principal a post condition constrains; {@link #typeId()} is the Stacks API's {@code principal.type_id}. */
public sealed interface PostConditionPrincipal {

    String typeId();

    /** The transaction's origin account, whoever it turns out to be. */
    record Origin() implements PostConditionPrincipal {
        @Override
        public String typeId() {
            return "principal_origin";
        }
    }

    record Standard(StacksAddress address) implements PostConditionPrincipal {
        public Standard {
            Objects.requireNonNull(address, "address");
        }

        @Override
        public String typeId() {
            return "principal_standard";
        }
    }

    record Contract(ContractId contract) implements PostConditionPrincipal {
        public Contract {
            Objects.requireNonNull(contract, "contract");
        }

        @Override
        public String typeId() {
            return "principal_contract";
        }
    }
}
