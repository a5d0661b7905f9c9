package io.stacksexplorer.ingest;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every row of every table the write path fills, as text, for comparing two databases row for row
 * (also conformance-tests' {@code DemoDatabaseStartTest}, through the test-jar).
 */
public final class TableDump {

    static final List<String> TABLES = List.of("blocks", "txs", "tx_events", "principal_txs",
            "principal_stats", "contract_log_stats", "smart_contracts", "mempool_txs", "mempool_principals",
            "mempool_principal_stats", "chain_state", "node_events");

    private TableDump() {
    }

    /**
     * Per table, its rows sorted, each as {@code column=value|…}.
     *
     * @param skippedColumns columns left out, as {@code table.column}
     * @param whereByTable   a condition on some tables' rows (SQL after WHERE)
     */
    static Map<String, List<String>> of(Connection c, Set<String> skippedColumns, Map<String, String> whereByTable)
            throws SQLException {
        return of(c, TABLES, skippedColumns, whereByTable);
    }

    /** The same for the tables named. */
    public static Map<String, List<String>> of(Connection c, List<String> tableNames, Set<String> skippedColumns,
                                               Map<String, String> whereByTable) throws SQLException {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        try (Statement st = c.createStatement()) {
            for (String table : tableNames) {
                String where = whereByTable.containsKey(table) ? " WHERE " + whereByTable.get(table) : "";
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SELECT * FROM " + table + where)) {
                    ResultSetMetaData meta = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            String column = meta.getColumnName(i).toLowerCase();
                            if (!skippedColumns.contains(table + "." + column)) {
                                row.append(column).append('=').append(rs.getString(i)).append('|');
                            }
                        }
                        rows.add(row.toString());
                    }
                }
                Collections.sort(rows);
                tables.put(table, rows);
            }
        }
        return tables;
    }

    /** Every table of the schema the connection is in (H2: {@code public}) but Flyway's history, by name. */
    public static List<String> everyTable(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM"
                + " INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'public' AND TABLE_TYPE = 'BASE TABLE'"
                + " AND TABLE_NAME <> 'flyway_schema_history' ORDER BY TABLE_NAME")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }
}
