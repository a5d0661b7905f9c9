package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.address.ContractId;
import java.util.Objects;

/** A token class: the contract defining it and the asset's name within that contract. */
public record AssetInfo(ContractId contract, String assetName) {

    public AssetInfo {
        Objects.requireNonNull(contract, "contract");
        Objects.requireNonNull(assetName, "assetName");
    }

    /** The Stacks API's asset identifier, {@code SP....contract::asset}. */
    public String assetId() {
        return contract + "::" + assetName;
    }
}
