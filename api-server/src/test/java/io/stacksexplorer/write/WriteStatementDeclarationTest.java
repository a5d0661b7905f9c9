package io.stacksexplorer.write;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every statement of the write path declares exactly the tables its SQL names
 * ({@link WriteStatement}): the order of queued rows follows the declarations, so a table missing
 * from one (a new table, a join added later) would let a read run before the rows it must see.
 * The tables are found in the SQL text here, independently of the declarations: every identifier
 * that is a table of the migrations, and as written those after INSERT INTO, UPDATE and DELETE FROM.
 */
class WriteStatementDeclarationTest {

    private static final Pattern CREATE_TABLE =
            Pattern.compile("(?i)CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");

    /** The tables the migrations create, lower case. */
    private static Set<String> migrationTables;
    /** Every statement declared in a static field (or list) of the write package, with where it is declared. */
    private static List<Declared> declared;

    record Declared(String where, WriteStatement statement) {
    }

    @BeforeAll
    static void readMigrationsAndDeclarations() throws IOException, URISyntaxException, ClassNotFoundException,
            IllegalAccessException {
        migrationTables = new TreeSet<>();
        Path migrations = Path.of(WriteStatementDeclarationTest.class.getResource("/db/migration").toURI());
        try (Stream<Path> files = Files.walk(migrations)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sql")).toList()) {
                Matcher m = CREATE_TABLE.matcher(Files.readString(file));
                while (m.find()) {
                    migrationTables.add(m.group(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        declared = new ArrayList<>();
        Path classes = Path.of(WriteStatement.class.getResource("WriteStatement.class").toURI()).getParent();
        try (Stream<Path> files = Files.list(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = file.getFileName().toString().replace(".class", "");
                Class<?> holder = Class.forName(WriteStatement.class.getPackageName() + "." + name);
                for (Field field : holder.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers()) || field.isSynthetic()) {
                        continue;
                    }
                    field.setAccessible(true);
                    Object value = field.get(null);
                    String where = name + "." + field.getName();
                    if (value instanceof WriteStatement statement) {
                        declared.add(new Declared(where, statement));
                    } else if (value instanceof List<?> list) {
                        for (int i = 0; i < list.size(); i++) {
                            if (list.get(i) instanceof WriteStatement statement) {
                                declared.add(new Declared(where + "[" + i + "]", statement));
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void theDeclarationsAreFound() {
        Set<String> holders = declared.stream().map(d -> d.where().substring(0, d.where().indexOf('.')))
                .collect(Collectors.toSet());
        assertTrue(holders.containsAll(Set.of("WriteSql", "ChangeLog")), holders.toString());
        assertTrue(declared.size() > 80, "statements found: " + declared.size());
        assertTrue(migrationTables.containsAll(Set.of("blocks", "txs", "change_log", "change_log_head")),
                migrationTables.toString());
    }

    @Test
    void everyTableConstantIsATableOfTheMigrations() {
        for (Table table : Table.values()) {
            assertTrue(migrationTables.contains(table.sqlName()), table + " is not created by a migration");
        }
    }

    @Test
    void everyStatementDeclaresTheTablesItsSqlNames() {
        List<String> wrong = new ArrayList<>();
        for (Declared d : declared) {
            WriteStatement statement = d.statement();
            Set<String> named = tablesNamed(statement.sql());
            Set<String> written = tablesWritten(statement.sql());
            Set<String> declaredTables = names(statement.reads());
            declaredTables.addAll(names(statement.writes()));
            if (!named.equals(declaredTables) || !written.equals(names(statement.writes()))) {
                wrong.add(d.where() + ": names " + named + ", writes " + written + "; declared reads "
                        + names(statement.reads()) + ", writes " + names(statement.writes()));
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theTokenizerFindsWholeNamesAndWrites() {
        assertEquals(Set.of("principal_txs"), tablesNamed(WriteSql.INSERT_PRINCIPAL_TX.sql()));
        assertEquals(Set.of("node_events"), tablesWritten(WriteSql.INSERT_NODE_EVENT_IF_NEW.sql()));
        String ofTwoTables = MempoolWrites.MEMPOOL_KNOWN_OR_MINED_BY_LOG2_PLACES.get(3).sql();
        assertEquals(Set.of("mempool_txs", "txs"), tablesNamed(ofTwoTables));
        assertEquals(Set.of(), tablesWritten(ofTwoTables));
        assertEquals(Set.of("mempool_principal_stats"), tablesWritten(WriteSql.UPSERT_MEMPOOL_COUNTS_POSTGRESQL.sql()),
                "ON CONFLICT … DO UPDATE SET names no second table");
        assertEquals(Set.of("txs"), tablesNamed("SELECT 'blocks' FROM txs"), "not inside a string literal");
    }

    private static List<String> tokens(String sql) {
        String code = sql.toLowerCase(Locale.ROOT).replaceAll("'[^']*'", "''");
        List<String> tokens = new ArrayList<>();
        Matcher m = IDENTIFIER.matcher(code);
        while (m.find()) {
            tokens.add(m.group());
        }
        return tokens;
    }

    private static Set<String> tablesNamed(String sql) {
        Set<String> named = new HashSet<>(tokens(sql));
        named.retainAll(migrationTables);
        return named;
    }

    private static Set<String> tablesWritten(String sql) {
        List<String> tokens = tokens(sql);
        Set<String> written = new HashSet<>();
        for (int i = 1; i < tokens.size(); i++) {
            String before = tokens.get(i - 1);
            boolean target = before.equals("update") || before.equals("into")
                    || before.equals("from") && i >= 2 && tokens.get(i - 2).equals("delete");
            if (target && migrationTables.contains(tokens.get(i))) {
                written.add(tokens.get(i));
            }
        }
        return written;
    }

    private static Set<String> names(Set<Table> tables) {
        return tables.stream().map(Table::sqlName).collect(Collectors.toCollection(HashSet::new));
    }
}
