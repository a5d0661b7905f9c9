package io.stacksexplorer.write;

/** The five execution-cost dimensions the node reports per transaction. */
public record ExecutionCost(long readCount, long readLength, long runtime, long writeCount, long writeLength) {

    public static final ExecutionCost ZERO = new ExecutionCost(0, 0, 0, 0, 0);

    public ExecutionCost plus(ExecutionCost other) {
        return new ExecutionCost(readCount + other.readCount, readLength + other.readLength,
                runtime + other.runtime, writeCount + other.writeCount, writeLength + other.writeLength);
    }
}
