package io.stacksexplorer.bench;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.stacksexplorer.http.ApiServer;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/** What {@code scale.ScaleBenchmark} reads off the PostgreSQL schema a replay filled, through the API server's pool. */
public final class ScaleDatabase {

    private ScaleDatabase() {
    }

    /** The schema's tables with their indexes and TOAST, in bytes. */
    public static long bytes(ApiServer api, String schema) throws Exception {
        DataSource ds = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
        try (Connection c = ds.getConnection(); PreparedStatement st = c.prepareStatement("""
                SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'r'""")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * VACUUM of every table of the schema: the mempool tables are insert-then-delete churn whose dead
     * index entries autovacuum removes; where it is off (as on the benchmark machine), the hot
     * address's mempool page walks every dead entry.
     */
    public static double vacuum(ApiServer api, String schema) throws Exception {
        DataSource ds = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
        long started = System.nanoTime();
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(true);
            List<String> tables = new ArrayList<>();
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT tablename FROM pg_tables WHERE schemaname = ?")) {
                st.setString(1, schema);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        tables.add(rs.getString(1));
                    }
                }
            }
            for (String table : tables) {
                try (var st = c.createStatement()) {
                    st.execute("VACUUM (ANALYZE) \"" + schema + "\"." + table);
                }
            }
        }
        return (System.nanoTime() - started) / 1e9;
    }

    public static String setting(ApiServer api, String name) throws Exception {
        DataSource ds = DelegatingDataSource.unwrapDataSource(api.context().getBean(DataSource.class));
        try (Connection c = ds.getConnection(); PreparedStatement st = c.prepareStatement("SELECT current_setting(?)")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return name + " = " + rs.getString(1);
            }
        }
    }
}
