package io.stacksexplorer.write;

import io.stacksexplorer.config.StorageSettings;
import org.flywaydb.core.Flyway;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

class MempoolAnnouncementH2Test extends MempoolAnnouncementContract {

    @Override
    Connection openMigratedDatabase() throws SQLException {
        String url = "jdbc:h2:mem:announce" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        Flyway.configure().dataSource(url, "sa", "").locations(StorageSettings.H2_MIGRATIONS.split(","))
                .load().migrate();
        return DriverManager.getConnection(url, "sa", "");
    }

    @Override
    void dropDatabase(Connection connection) throws SQLException {
        try (connection; var st = connection.createStatement()) {
            st.execute("DROP ALL OBJECTS");
        }
    }
}
