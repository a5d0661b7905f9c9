package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;
import java.util.Objects;

/** One entry of a multi-sig spending condition: a public key (33 bytes) or a recoverable signature (65 bytes). */
public record AuthField(Type type, String hex) {

    public AuthField {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(hex, "hex");
    }

    public enum Type {
        PUBLIC_KEY_COMPRESSED(0x00, 33),
        PUBLIC_KEY_UNCOMPRESSED(0x01, 33),
        SIGNATURE_COMPRESSED(0x02, 65),
        SIGNATURE_UNCOMPRESSED(0x03, 65);

        private final int code;
        private final int length;

        Type(int code, int length) {
            this.code = code;
            this.length = length;
        }

        public int code() {
            return code;
        }

        /** Bytes that follow the type byte; uncompressed keys still travel as 33 bytes on the wire. */
        public int length() {
            return length;
        }

        public boolean isSignature() {
            return this == SIGNATURE_COMPRESSED || this == SIGNATURE_UNCOMPRESSED;
        }

        public boolean isCompressed() {
            return this == PUBLIC_KEY_COMPRESSED || this == SIGNATURE_COMPRESSED;
        }

        static Type fromCode(int code, int offset) {
            for (Type type : values()) {
                if (type.code == code) {
                    return type;
                }
            }
            throw CodecException.at(offset, "unknown multi-sig auth field type " + code);
        }
    }
}
