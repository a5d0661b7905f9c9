package io.stacksexplorer.config;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;

/**
 * Child process of {@link StorageSettingsTest}: commits N rows one transaction each on the H2 URL
 * it is given, each followed by {@code CHECKPOINT} as the event observer does before it answers 200
 * (ChainWriter#makeDurable), then stops the JVM at once with {@link Runtime#halt} (no shutdown
 * hooks, no close: what a SIGKILL leaves).
 */
public final class CommitThenDie {

    static final int EXIT_AFTER_COMMITS = 42;

    private CommitThenDie() {
    }

    public static void main(String[] args) throws Exception {
        int rows = Integer.parseInt(args[1]);
        Connection c = DriverManager.getConnection(args[0], "sa", "");
        c.createStatement().execute("CREATE TABLE committed (id INT PRIMARY KEY, payload VARCHAR(4000))");
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO committed VALUES (?, ?)")) {
            for (int i = 0; i < rows; i++) {
                insert.setInt(1, i);
                insert.setString(2, "x".repeat(2000));
                insert.executeUpdate();
                c.commit();
                c.createStatement().execute("CHECKPOINT");
            }
        }
        Runtime.getRuntime().halt(EXIT_AFTER_COMMITS);
    }
}
