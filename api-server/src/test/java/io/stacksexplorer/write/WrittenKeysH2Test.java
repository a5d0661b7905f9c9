package io.stacksexplorer.write;

import java.sql.Connection;
import java.sql.SQLException;

class WrittenKeysH2Test extends WrittenKeysContract {

    @Override
    Connection openMigratedDatabase() throws SQLException {
        return MigratedDatabases.h2("keys");
    }

    @Override
    void dropDatabase(Connection connection) throws SQLException {
        MigratedDatabases.dropH2(connection);
    }
}
