package io.stacksexplorer.write;

import io.stacksexplorer.http.TestDatabase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.condition.EnabledIf;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class MempoolAnnouncementPostgresTest extends MempoolAnnouncementContract {

    private final String schema = "announce_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @Override
    Connection openMigratedDatabase() throws SQLException {
        Connection connection = TestDatabase.postgresConnectionInNewSchema(schema);
        Map<String, String> env = TestDatabase.postgresEnvironment(schema);
        Flyway.configure()
                .dataSource("jdbc:postgresql://" + env.get("PG_HOST") + ":" + env.get("PG_PORT") + "/"
                        + env.get("PG_DATABASE"), env.get("PG_USER"), env.get("PG_PASSWORD"))
                .schemas(schema).locations("classpath:db/migration/common", "classpath:db/migration/postgresql")
                .load().migrate();
        return connection;
    }

    @Override
    void dropDatabase(Connection connection) throws SQLException {
        TestDatabase.dropSchemaAndClose(connection, schema);
    }
}
