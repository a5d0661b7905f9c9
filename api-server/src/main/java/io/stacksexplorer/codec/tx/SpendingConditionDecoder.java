package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.ByteReader;
import io.stacksexplorer.codec.CodecException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads spending conditions as stacks-core does. Signature counts are not compared with
 * {@code signatures_required}: that is validation, which the node did before the transaction reached us,
 * and order-independent multi-sig relaxed it.
 */
final class SpendingConditionDecoder {

    private static final int SIGNER_LENGTH = 20;
    private static final int SIGNATURE_LENGTH = 65;

    private SpendingConditionDecoder() {
    }

    static SpendingCondition read(ByteReader reader, String role) {
        int at = reader.offset();
        HashMode hashMode = HashMode.fromCode(reader.u8(role + " hash mode"), at);
        String signer = WireFields.hex(reader, SIGNER_LENGTH, role + " signer");
        BigInteger nonce = reader.u64(role + " nonce");
        BigInteger fee = reader.u64(role + " fee");
        return hashMode.isMultiSig()
                ? readMultiSig(reader, role, at, hashMode, signer, nonce, fee)
                : readSingleSig(reader, role, at, hashMode, signer, nonce, fee);
    }

    private static SpendingCondition readSingleSig(ByteReader reader, String role, int at, HashMode hashMode,
                                                   String signer, BigInteger nonce, BigInteger fee) {
        int encodingAt = reader.offset();
        KeyEncoding encoding = KeyEncoding.fromCode(reader.u8(role + " key encoding"), encodingAt);
        String signature = WireFields.hex(reader, SIGNATURE_LENGTH, role + " signature");
        if (hashMode.requiresCompressedKeys() && encoding != KeyEncoding.COMPRESSED) {
            throw CodecException.at(encodingAt, role + " uses " + hashMode + " with an uncompressed key");
        }
        return new SpendingCondition.SingleSig(hashMode, signer, nonce, fee, encoding, signature);
    }

    private static SpendingCondition readMultiSig(ByteReader reader, String role, int at, HashMode hashMode,
                                                  String signer, BigInteger nonce, BigInteger fee) {
        int countAt = reader.offset();
        int count = reader.checkedLength(reader.u32(role + " auth field count"), role + " auth field count", countAt);
        List<AuthField> fields = new ArrayList<>(Math.min(count, 64));
        for (int i = 0; i < count; i++) {
            int fieldAt = reader.offset();
            AuthField.Type type = AuthField.Type.fromCode(reader.u8(role + " auth field type"), fieldAt);
            if (hashMode.requiresCompressedKeys() && !type.isCompressed()) {
                throw CodecException.at(fieldAt, role + " uses " + hashMode + " with an uncompressed key");
            }
            fields.add(new AuthField(type, WireFields.hex(reader, type.length(), role + " auth field")));
        }
        int required = reader.u16(role + " signatures required");
        return new SpendingCondition.MultiSig(hashMode, signer, nonce, fee, fields, required);
    }
}
