package io.stacksexplorer.write;

import org.junit.jupiter.api.condition.EnabledIf;

import java.sql.Connection;
import java.sql.SQLException;

@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class MempoolAnnouncementPostgresTest extends MempoolAnnouncementContract {

    private final String schema = MigratedDatabases.newSchemaName("announce");

    @Override
    Connection openMigratedDatabase() throws SQLException {
        return MigratedDatabases.postgres(schema);
    }

    @Override
    void dropDatabase(Connection connection) throws SQLException {
        MigratedDatabases.dropPostgres(connection, schema);
    }
}
