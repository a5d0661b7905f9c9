package io.stacksexplorer.generate;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A named chain of the generator: a seed, a size and an era. {@code demo} is what an empty
 * embedded database is filled with on first start (through the node-event path, as a replay), and
 * what the tests that need "a realistic chain" build on: 3,000 transactions of a mixed chain (2.x
 * blocks with microblocks and a fork, then Nakamoto tenures), small enough for a first start of a
 * few seconds. The seed was picked for coverage: microblocks confirmed and orphaned, a reorg,
 * pending contract deployments, and every transaction type and outcome the API shows.
 */
public record Preset(String name, long seed, long transactions, Era era) {

    public static final Preset DEMO = new Preset("demo", 12L, 3_000L, Era.MIXED);

    public static Preset parse(String name) {
        if (DEMO.name.equals(name.toLowerCase(Locale.ROOT))) {
            return DEMO;
        }
        throw new IllegalArgumentException("--preset must be demo, not " + name);
    }

    /** The same size and era from another seed. */
    public Preset withSeed(long otherSeed) {
        return new Preset(name, otherSeed, transactions, era);
    }

    /** Generates the chain, handing each log line (without its line end) to {@code each}, in order. */
    public GeneratorSummary generate(Consumer<String> each) throws IOException {
        try (Writer out = new LineWriter(each)) {
            return new ChainGenerator(seed, era).generate(transactions, out, done -> {
            });
        }
    }

    /** Splits what the generator writes into lines, without holding the log. */
    static final class LineWriter extends Writer {

        private final Consumer<String> each;
        private final StringBuilder line = new StringBuilder(1 << 16);

        LineWriter(Consumer<String> each) {
            this.each = each;
        }

        @Override
        public void write(int c) {
            if (c == '\n') {
                each.accept(line.toString());
                line.setLength(0);
            } else {
                line.append((char) c);
            }
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            int start = offset;
            for (int i = offset; i < offset + length; i++) {
                if (chars[i] == '\n') {
                    line.append(chars, start, i - start);
                    each.accept(line.toString());
                    line.setLength(0);
                    start = i + 1;
                }
            }
            line.append(chars, start, offset + length - start);
        }

        @Override
        public void write(String text, int offset, int length) {
            int start = offset;
            for (int i = offset; i < offset + length; i++) {
                if (text.charAt(i) == '\n') {
                    line.append(text, start, i);
                    each.accept(line.toString());
                    line.setLength(0);
                    start = i + 1;
                }
            }
            line.append(text, start, offset + length);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            if (!line.isEmpty()) {
                each.accept(line.toString());
                line.setLength(0);
            }
        }
    }
}
