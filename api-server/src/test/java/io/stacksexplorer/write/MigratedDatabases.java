package io.stacksexplorer.write;

import io.stacksexplorer.config.StorageSettings;
import io.stacksexplorer.http.TestDatabase;
import org.flywaydb.core.Flyway;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

/** New, migrated, empty databases for the write path's JDBC-level tests, in autocommit mode. */
final class MigratedDatabases {

    private MigratedDatabases() {
    }

    /** An in-memory H2 database, kept until {@link #dropH2}. */
    static Connection h2(String name) throws SQLException {
        String url = "jdbc:h2:mem:" + name + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        Flyway.configure().dataSource(url, "sa", "").locations(StorageSettings.H2_MIGRATIONS.split(","))
                .load().migrate();
        return DriverManager.getConnection(url, "sa", "");
    }

    static void dropH2(Connection connection) throws SQLException {
        try (connection; var st = connection.createStatement()) {
            st.execute("DROP ALL OBJECTS");
        }
    }

    /** A schema name of its own for one PostgreSQL test. */
    static String newSchemaName(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** A new schema on the test PostgreSQL server (TestDatabase), migrated. */
    static Connection postgres(String schema) throws SQLException {
        Connection connection = TestDatabase.postgresConnectionInNewSchema(schema);
        Map<String, String> env = TestDatabase.postgresEnvironment(schema);
        Flyway.configure()
                .dataSource("jdbc:postgresql://" + env.get("PG_HOST") + ":" + env.get("PG_PORT") + "/"
                        + env.get("PG_DATABASE"), env.get("PG_USER"), env.get("PG_PASSWORD"))
                .schemas(schema).locations("classpath:db/migration/common", "classpath:db/migration/postgresql")
                .load().migrate();
        return connection;
    }

    static void dropPostgres(Connection connection, String schema) throws SQLException {
        TestDatabase.dropSchemaAndClose(connection, schema);
    }

    /** A pending mempool row inserted on {@code connection} directly, not through the write path. */
    static void insertMempoolRow(Connection connection, String txId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("""
                INSERT INTO mempool_txs (tx_id, raw_tx, receipt_time, tx_status, pruned, tx_type, nonce, fee_rate,
                    sender_address, receipt_block_height)
                VALUES (?, '0x00', 1, 'pending', FALSE, 'token_transfer', 0, 1, 'SP000000000000000000002Q6VF78', 1)""")) {
            ps.setString(1, txId);
            ps.executeUpdate();
        }
    }
}
