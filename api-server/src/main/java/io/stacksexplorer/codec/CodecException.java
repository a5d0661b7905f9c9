package io.stacksexplorer.codec;

/**
 * Thrown for any input the codec cannot decode exactly as the Stacks node would.
 *
 * <p>Unchecked because callers either map it to a 400 (user input) or treat it as corrupt node data;
 * neither wants a {@code throws} clause on every accessor.
 */
public class CodecException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Byte offset (character index for text input) where the problem was found; -1 when not positional. */
    private final int offset;

    public CodecException(String message) {
        super(message);
        this.offset = -1;
    }

    private CodecException(String message, int offset) {
        super(message);
        this.offset = offset;
    }

    /** A positional error: the message ends with "at byte offset N". */
    public static CodecException at(int offset, String message) {
        return new CodecException(message + " at byte offset " + offset, offset);
    }

    /** A positional error in text (hex, c32): the message ends with "at character N". */
    public static CodecException atCharacter(int index, String message) {
        return new CodecException(message + " at character " + index, index);
    }

    public int offset() {
        return offset;
    }
}
