package io.stacksexplorer.generate;

import io.stacksexplorer.ServerVersion;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code generate FILE.tsv --transactions N [--seed S] [--era E]} or {@code generate FILE.tsv --preset demo}:
 * writes a generated node-event log and its summary.
 */
@Command(name = "generate", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class,
        description = "Writes a deterministic, realistic stacks-node event log (TSV, as recorded logs) of a chain"
                + " with N transactions, and FILE.tsv.summary.json beside it. Replay it with `replay FILE.tsv`.")
public final class GenerateCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE.tsv", description = "the log to write (replaced if it exists)")
    Path file;

    @Option(names = "--transactions", paramLabel = "N",
            description = "canonical transactions in the chain (coinbases and microblock transactions included)")
    Long transactions;

    @Option(names = "--preset", paramLabel = "demo",
            description = "a named chain instead of --transactions/--seed/--era: demo is the chain an empty embedded"
                    + " database is filled with on first start")
    String preset;

    @Option(names = "--era", paramLabel = "2|3|mixed", converter = EraConverter.class,
            description = "2: Stacks 2.x blocks only; 3: Nakamoto blocks only; mixed: 2.x blocks, then the epoch-3.0"
                    + " activation once 30%% of the transactions are mined, then Nakamoto blocks, as mainnet went"
                    + " (default: mixed)")
    Era era;

    static final class EraConverter implements picocli.CommandLine.ITypeConverter<Era> {
        @Override
        public Era convert(String value) {
            return Era.parse(value);
        }
    }

    @Option(names = "--seed", paramLabel = "S",
            description = "the same seed always gives the same bytes (default: 1)")
    Long seed;

    @Override
    public Integer call() throws Exception {
        Preset chain;
        if (preset != null) {
            if (transactions != null || era != null) {
                System.err.println("--preset sets the size and era: leave out --transactions and --era");
                return 2;
            }
            chain = Preset.parse(preset);
            chain = seed == null ? chain : chain.withSeed(seed);
        } else if (transactions == null || transactions < 1) {
            System.err.println("--transactions must be at least 1 (or give --preset demo)");
            return 2;
        } else {
            chain = new Preset("custom", seed == null ? 1L : seed, transactions, era == null ? Era.MIXED : era);
        }
        Path absolute = file.toAbsolutePath();
        if (absolute.getParent() != null) {
            Files.createDirectories(absolute.getParent());
        }
        ChainGenerator generator = new ChainGenerator(chain.seed(), chain.era());
        GeneratorSummary summary;
        try (Writer out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(absolute),
                StandardCharsets.UTF_8), 1 << 20);
             ProgressBar bar = new ProgressBarBuilder().setTaskName("generate").setInitialMax(chain.transactions())
                     .setUnit(" tx", 1).setUpdateIntervalMillis(500).build()) {
            summary = generator.generate(chain.transactions(), out, bar::stepTo);
        }
        summary.bytes = Files.size(absolute);
        Path summaryFile = absolute.resolveSibling(absolute.getFileName() + ".summary.json");
        summary.write(summaryFile);
        System.out.println("generated " + file + ": " + summary);
        System.out.println("summary: " + summaryFile);
        return 0;
    }
}
