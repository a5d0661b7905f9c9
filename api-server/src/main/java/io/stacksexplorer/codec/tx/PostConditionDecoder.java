package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.ByteReader;
import io.stacksexplorer.codec.CodecException;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** Reads the post-condition list (u32 count, then each condition) as stacks-core does. */
final class PostConditionDecoder {

    private static final int STX = 0x00;
    private static final int FUNGIBLE = 0x01;
    private static final int NON_FUNGIBLE = 0x02;
    /** SIP-044 (epoch 4.0). */
    private static final int STAKING = 0x03;
    private static final int POX = 0x04;

    private static final int ORIGIN = 0x01;
    private static final int STANDARD = 0x02;
    private static final int CONTRACT = 0x03;

    private PostConditionDecoder() {
    }

    static List<PostCondition> readAll(ByteReader reader) {
        int at = reader.offset();
        int count = reader.checkedLength(reader.u32("post-condition count"), "post-condition count", at);
        List<PostCondition> conditions = new ArrayList<>(Math.min(count, 64));
        for (int i = 0; i < count; i++) {
            conditions.add(read(reader));
        }
        return conditions;
    }

    private static PostCondition read(ByteReader reader) {
        int at = reader.offset();
        int type = reader.u8("post-condition type");
        switch (type) {
            case STX -> {
                PostConditionPrincipal principal = principal(reader);
                FungibleConditionCode code = fungibleCode(reader);
                return new PostCondition.Stx(principal, code, reader.u64("post-condition amount"));
            }
            case FUNGIBLE -> {
                PostConditionPrincipal principal = principal(reader);
                AssetInfo asset = assetInfo(reader);
                FungibleConditionCode code = fungibleCode(reader);
                BigInteger amount = reader.u64("post-condition amount");
                return new PostCondition.Fungible(principal, asset, code, amount);
            }
            case NON_FUNGIBLE -> {
                PostConditionPrincipal principal = principal(reader);
                AssetInfo asset = assetInfo(reader);
                ClarityValue value = ClarityValue.read(reader);
                int codeAt = reader.offset();
                NonFungibleConditionCode code =
                        NonFungibleConditionCode.fromCode(reader.u8("non-fungible condition code"), codeAt);
                return new PostCondition.NonFungible(principal, asset, value, code);
            }
            case STAKING -> {
                PostConditionPrincipal principal = principal(reader);
                FungibleConditionCode code = fungibleCode(reader);
                return new PostCondition.Staking(principal, code, reader.u64("post-condition amount"));
            }
            case POX -> {
                PostConditionPrincipal principal = principal(reader);
                int codeAt = reader.offset();
                return new PostCondition.Pox(principal, PoxConditionCode.fromCode(reader.u8("PoX condition code"), codeAt));
            }
            default -> throw CodecException.at(at, "unknown post-condition type " + type);
        }
    }

    private static PostConditionPrincipal principal(ByteReader reader) {
        int at = reader.offset();
        int kind = reader.u8("post-condition principal type");
        return switch (kind) {
            case ORIGIN -> new PostConditionPrincipal.Origin();
            case STANDARD -> new PostConditionPrincipal.Standard(StacksAddress.read(reader));
            case CONTRACT -> new PostConditionPrincipal.Contract(
                    WireFields.contract(reader, "post-condition principal contract"));
            default -> throw CodecException.at(at, "unknown post-condition principal type " + kind);
        };
    }

    private static AssetInfo assetInfo(ByteReader reader) {
        return new AssetInfo(WireFields.contract(reader, "asset contract"),
                WireFields.clarityName(reader, "asset name"));
    }

    private static FungibleConditionCode fungibleCode(ByteReader reader) {
        int at = reader.offset();
        return FungibleConditionCode.fromCode(reader.u8("fungible condition code"), at);
    }
}
