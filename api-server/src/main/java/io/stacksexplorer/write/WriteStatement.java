package io.stacksexplorer.write;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * One statement of the write path with the tables it reads and writes, declared next to its SQL
 * ({@link WriteSql}, {@link ChangeLog}): {@link Statements} orders queued rows by these
 * declarations ({@link #mustPrecede}), and WriteStatementDeclarationTest checks every declaration
 * against the tables its SQL names, so that a statement on a new table cannot be declared without it.
 *
 * @param reads  the tables it reads (a table it writes may be listed here too; it changes nothing)
 * @param writes the tables it inserts into, updates or deletes from
 */
record WriteStatement(String sql, Set<Table> reads, Set<Table> writes) {

    WriteStatement {
        reads = Collections.unmodifiableSet(copy(reads));
        writes = Collections.unmodifiableSet(copy(writes));
    }

    /** A statement that writes {@code tables} (and may read them). */
    static Declaration writing(Table... tables) {
        return new Declaration(Set.of(), Set.of(tables));
    }

    /** A statement that reads {@code tables}. */
    static Declaration reading(Table... tables) {
        return new Declaration(Set.of(tables), Set.of());
    }

    /** A statement that reads and writes no table (session settings, H2's checkpoint). */
    static Declaration touchingNoTable() {
        return new Declaration(Set.of(), Set.of());
    }

    /** The tables of a statement whose SQL follows. */
    record Declaration(Set<Table> reads, Set<Table> writes) {

        /** These tables are read as well. */
        Declaration reading(Table... tables) {
            Set<Table> more = copy(reads);
            more.addAll(Set.of(tables));
            return new Declaration(more, writes);
        }

        WriteStatement sql(String sql) {
            return new WriteStatement(sql, reads, writes);
        }
    }

    /**
     * Whether the rows {@code earlier} queued must reach the database before {@code later} runs:
     * one of them writes a table the other reads or writes. Two reads of a table need no order.
     */
    static boolean mustPrecede(WriteStatement earlier, WriteStatement later) {
        return writesAnyOf(earlier, later) || writesAnyOf(later, earlier);
    }

    private static boolean writesAnyOf(WriteStatement writer, WriteStatement other) {
        for (Table table : writer.writes) {
            if (other.writes.contains(table) || other.reads.contains(table)) {
                return true;
            }
        }
        return false;
    }

    /** Hashed by its text alone: a statement keys maps per row queued, and one text has one declaration. */
    @Override
    public int hashCode() {
        return sql.hashCode();
    }

    @Override
    public String toString() {
        return sql;
    }

    private static EnumSet<Table> copy(Set<Table> tables) {
        EnumSet<Table> copy = EnumSet.noneOf(Table.class);
        copy.addAll(tables);
        return copy;
    }
}
