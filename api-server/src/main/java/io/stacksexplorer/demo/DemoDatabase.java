package io.stacksexplorer.demo;

import io.stacksexplorer.config.StorageSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;

/**
 * The demo chain's embedded database, made once by the build and copied into place on a first start.
 *
 * <p>Why: generating and ingesting the demo preset in a JVM that has just started takes 7-8 s and
 * ~12 CPU s on this 2-core machine, most of it the JIT compiling the generator, the codecs and the
 * write path while they run (docs/performance.md, "First start on the demo preset"); the same work in
 * a warm JVM takes a fraction of that. So the build runs the {@code demo-database} command right after
 * packaging: it ingests the preset through the same {@link DemoDataLoader} into a new H2 file beside
 * the jar ({@code target/demo-chain/}), compacts it and stamps it with the jar it was made by. A server
 * started from that jar on an empty embedded database copies the file into place before the database
 * opens; anything else (another jar, another seed, a database that exists, PostgreSQL, memory,
 * {@code DEMO_DATA_PREBUILT=false}) generates the demo live as before. The copy is one file, written
 * under a temporary name and renamed, so a start killed half-way leaves no half database.
 *
 * <p>Framework-free on purpose: it runs before Micronaut's context exists.
 */
public final class DemoDatabase {

    /** The folder beside the jar the build writes. */
    public static final String FOLDER = "demo-chain";
    /** The H2 base name inside it (H2 adds {@code .mv.db}). */
    public static final String BASE_NAME = "stacks-explorer";
    static final String STAMP = "built-with.properties";
    private static final String H2_SUFFIX = ".mv.db";

    private DemoDatabase() {
    }

    private static final String DATABASE_EXISTS = "the embedded database exists";

    /** What a first start did: copied (with the file and its size) or not (and why). */
    public record Placement(boolean copied, String why, long bytes) {

        static Placement skipped(String why) {
            return new Placement(false, why, 0);
        }

        /** Not copied because a database is there already: every start but the first, nothing to say. */
        public boolean databaseExisted() {
            return DATABASE_EXISTS.equals(why);
        }
    }

    /** The jar this class was loaded from; empty when it runs from a classes folder (tests, IDEs). */
    public static Optional<Path> runningJar() {
        try {
            CodeSource source = DemoDatabase.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return Optional.empty();
            }
            Path path = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(path) && path.getFileName().toString().endsWith(".jar")
                    ? Optional.of(path) : Optional.empty();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The H2 file a base name stands for ({@code base.mv.db}). */
    public static Path h2File(Path base) {
        return base.resolveSibling(base.getFileName() + H2_SUFFIX);
    }

    /**
     * Closes the freshly written database at {@code folder} compacted (H2 rewrites every live page into a
     * new file: the demo's file shrinks to a fraction, so the copy on each first start is small) and
     * stamps it as made by {@code builtWith} from {@code seed}.
     */
    public static void seal(Path folder, Path builtWith, long seed) throws IOException, SQLException {
        Path base = folder.resolve(BASE_NAME);
        try (Connection c = DriverManager.getConnection(StorageSettings.h2FileUrl(base), "sa", "");
             Statement st = c.createStatement()) {
            st.execute("SHUTDOWN COMPACT");
        }
        Properties stamp = identity(builtWith, seed);
        try (OutputStream out = Files.newOutputStream(folder.resolve(STAMP))) {
            stamp.store(out, "the demo chain's database in this folder was written by this jar; a server started"
                    + " from the same jar copies it into an empty embedded database");
        }
    }

    /**
     * Copies the sealed demo database from {@code folder} to the H2 file of {@code h2Base} when that file
     * does not exist yet and the stamp names {@code builtWith} (same size and modification time) and
     * {@code seed}. Never touches an existing database.
     */
    public static Placement placeIfNew(Path folder, Path builtWith, long seed, Path h2Base) throws IOException {
        Path target = h2File(h2Base);
        if (Files.exists(target)) {
            return Placement.skipped(DATABASE_EXISTS);
        }
        Path source = h2File(folder.resolve(BASE_NAME));
        Path stampFile = folder.resolve(STAMP);
        if (!Files.isRegularFile(source) || !Files.isRegularFile(stampFile)) {
            return Placement.skipped("no demo database was built beside the jar (" + folder + ")");
        }
        Properties stamp = new Properties();
        try (InputStream in = Files.newInputStream(stampFile)) {
            stamp.load(in);
        }
        if (!identity(builtWith, seed).equals(stamp)) {
            return Placement.skipped("the demo database in " + folder + " was built by another jar or seed");
        }
        Path parent = target.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path part = parent.resolve(target.getFileName() + ".part");
        try {
            Files.copy(source, part, StandardCopyOption.REPLACE_EXISTING);
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(part);
            throw e;
        }
        return new Placement(true, "copied " + source, Files.size(target));
    }

    private static Properties identity(Path builtWith, long seed) throws IOException {
        Properties p = new Properties();
        p.setProperty("jar.bytes", Long.toString(Files.size(builtWith)));
        p.setProperty("jar.modified", Long.toString(Files.getLastModifiedTime(builtWith).toMillis()));
        p.setProperty("demo.seed", Long.toString(seed));
        return p;
    }
}
