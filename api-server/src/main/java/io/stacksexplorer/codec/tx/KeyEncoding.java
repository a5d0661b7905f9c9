package io.stacksexplorer.codec.tx;

import io.stacksexplorer.codec.CodecException;

/** Whether the public key recovered from a single-sig signature is compressed. */
public enum KeyEncoding {
    COMPRESSED(0x00),
    UNCOMPRESSED(0x01);

    private final int code;

    KeyEncoding(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    static KeyEncoding fromCode(int code, int offset) {
        for (KeyEncoding encoding : values()) {
            if (encoding.code == code) {
                return encoding;
            }
        }
        throw CodecException.at(offset, "unknown public key encoding " + code);
    }
}
