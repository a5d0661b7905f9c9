package io.stacksexplorer.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stacksexplorer.config.StorageSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prebuilt demo database's seal and copy on a real H2 file: copied only into a place where no
 * database exists, only from the jar and seed that made it, whole or not at all. The build's own
 * database and a server started from the jar are checked end to end by conformance-tests'
 * {@code DemoDatabaseStartTest}.
 */
class DemoDatabaseTest {

    @TempDir
    Path dir;

    private Path folder;
    private Path jar;

    @BeforeEach
    void aSealedDatabase() throws IOException, SQLException {
        folder = Files.createDirectories(dir.resolve(DemoDatabase.FOLDER));
        jar = Files.writeString(dir.resolve("api-server.jar"), "a jar's bytes");
        try (Connection c = open(folder.resolve(DemoDatabase.BASE_NAME)); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE blocks (height BIGINT PRIMARY KEY)");
            st.execute("INSERT INTO blocks SELECT \"X\" FROM SYSTEM_RANGE(1, 5000)");
        }
        DemoDatabase.seal(folder, jar, 12);
    }

    @Test
    void aNewPlaceGetsTheWholeDatabaseWhichOpensWithItsRows() throws Exception {
        Path base = dir.resolve("data/stacks-explorer");

        DemoDatabase.Placement placed = DemoDatabase.placeIfNew(folder, jar, 12, base);

        assertTrue(placed.copied(), placed.why());
        assertEquals(Files.size(DemoDatabase.h2File(base)), placed.bytes());
        try (Stream<Path> files = Files.list(base.getParent())) {
            assertEquals(1, files.count(), "only the database, no part file left");
        }
        try (Connection c = open(base); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(height) FROM blocks")) {
            rs.next();
            assertEquals(5000, rs.getLong(1));
            assertEquals(5000L * 5001 / 2, rs.getLong(2));
        }
    }

    @Test
    void anExistingDatabaseIsNeverTouched() throws Exception {
        Path base = dir.resolve("data/stacks-explorer");
        Files.createDirectories(base.getParent());
        byte[] theirs = "someone's database".getBytes();
        Files.write(DemoDatabase.h2File(base), theirs);

        DemoDatabase.Placement placed = DemoDatabase.placeIfNew(folder, jar, 12, base);

        assertFalse(placed.copied());
        assertTrue(placed.databaseExisted());
        assertArrayEquals(theirs, Files.readAllBytes(DemoDatabase.h2File(base)));
    }

    @Test
    void aDatabaseMadeByAnotherJarOrSeedIsNotCopied() throws Exception {
        Path base = dir.resolve("data/stacks-explorer");

        assertFalse(DemoDatabase.placeIfNew(folder, jar, 13, base).copied(), "another seed");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 1000));
        assertFalse(DemoDatabase.placeIfNew(folder, jar, 12, base).copied(), "the jar was rebuilt since");
        Files.writeString(jar, "another jar's bytes, longer");
        assertFalse(DemoDatabase.placeIfNew(folder, jar, 12, base).copied(), "another jar");
        assertFalse(Files.exists(base.getParent()), "nothing written");
    }

    @Test
    void noBuiltDatabaseMeansNoCopy() throws Exception {
        Path base = dir.resolve("data/stacks-explorer");

        DemoDatabase.Placement placed = DemoDatabase.placeIfNew(dir.resolve("elsewhere"), jar, 12, base);

        assertFalse(placed.copied());
        assertTrue(placed.why().startsWith("no demo database"), placed.why());
    }

    @Test
    void testsAndIdesRunFromClassesSoNoJarIsFound() {
        assertTrue(DemoDatabase.runningJar().isEmpty());
    }

    private static Connection open(Path base) throws SQLException {
        return DriverManager.getConnection(StorageSettings.h2FileUrl(base), "sa", "");
    }
}
