package io.stacksexplorer.write;

import java.sql.Connection;
import java.sql.SQLException;

class MempoolAnnouncementH2Test extends MempoolAnnouncementContract {

    @Override
    Connection openMigratedDatabase() throws SQLException {
        return MigratedDatabases.h2("announce");
    }

    @Override
    void dropDatabase(Connection connection) throws SQLException {
        MigratedDatabases.dropH2(connection);
    }
}
